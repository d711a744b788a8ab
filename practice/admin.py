from django.contrib import admin

from .models import PracticeGame


@admin.register(PracticeGame)
class PracticeGameAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "level", "deal_number", "version", "updated")
    list_filter = ("game", "level")
    readonly_fields = ("id", "owner", "series", "created", "updated")
