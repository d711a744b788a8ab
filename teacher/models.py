"""Teacher scenarios: a ``dam-scenario/1`` object stored under a short share code.

Anyone with the share code may view and present it; only a session that created it (or that
opened the secret edit link) may change it.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class TeacherScenario(models.Model):
    code = models.CharField(_("share code"), max_length=16, unique=True)
    edit_token = models.CharField(_("edit token"), max_length=64)
    title = models.CharField(_("title"), max_length=120, blank=True)
    data = models.JSONField(_("scenario"), default=dict)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["-updated"]
        verbose_name = _("teacher scenario")
        verbose_name_plural = _("teacher scenarios")

    def __str__(self) -> str:
        return f"{self.code} {self.data.get('game', '')} {self.title}"
