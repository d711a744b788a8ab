"""A private table: seats for people and bots around the deals of one match.

Each deal is a practice game record (``practice.models.PracticeGame``, owner ``table:<id>``):
the same record, replay, optimistic concurrency (one move per ``version``) and series scoring
as practice, so a table adds only who sits where.  ``seats`` holds one entry per seat::

    {"name": "Anna", "player": "<token>" or "", "left": <epoch seconds> or None}

``player`` is the token in the sitting browser's session ("" for a bot's seat); ``left`` is when
that player pressed "Leave": after the grace period a bot plays the seat until they come back.
``version`` rises with every change of the seats (a move raises the deal's own version).
"""

from __future__ import annotations

import uuid

from django.db import models
from django.utils.translation import gettext_lazy as _

from practice.models import GAME_CHOICES, LEVEL_CHOICES, PracticeGame


class Table(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    code = models.CharField(_("join code"), max_length=8, unique=True)
    game = models.CharField(_("game"), max_length=16, choices=GAME_CHOICES)
    rules = models.JSONField(_("rules"), default=dict)
    level = models.CharField(_("bot level"), max_length=8, choices=LEVEL_CHOICES,
                             default="normal")
    memory_aid = models.BooleanField(_("memory aid"), default=True)
    host = models.CharField(_("host"), max_length=64)
    seats = models.JSONField(_("seats"), default=list)
    series = models.UUIDField(_("series"), default=uuid.uuid4)
    deal = models.ForeignKey(PracticeGame, verbose_name=_("current deal"), null=True,
                             blank=True, on_delete=models.SET_NULL, related_name="+")
    version = models.PositiveIntegerField(_("version"), default=0)
    # A class table (``tables.classes``): the live session whose students sit here, and its
    # number in the class.  Its results go with the session's record.
    live = models.ForeignKey("live.LiveSession", verbose_name=_("live session"), null=True,
                             blank=True, on_delete=models.CASCADE, related_name="class_tables")
    class_number = models.PositiveSmallIntegerField(_("table number"), null=True, blank=True)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    active = models.DateTimeField(_("last activity"))

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")

    def __str__(self) -> str:
        return f"{self.game} {self.code}"
