from django.shortcuts import render


def home(request):
    return render(request, "home.html")


def root_redirect(request):
    from django.http import HttpResponseRedirect
    return HttpResponseRedirect("/sv/")
