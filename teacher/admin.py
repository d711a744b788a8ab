from django.contrib import admin

from .models import TeacherScenario


@admin.register(TeacherScenario)
class TeacherScenarioAdmin(admin.ModelAdmin):
    list_display = ("code", "title", "created", "updated")
    search_fields = ("code", "title")
    readonly_fields = ("code", "edit_token", "created", "updated")
