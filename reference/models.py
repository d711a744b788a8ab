"""Reference content that editors maintain in the admin, translated with modeltranslation."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any, ClassVar

from django.core.cache import cache
from django.db import models, transaction
from django.utils.translation import gettext_lazy as _

from games import registry

GAME_CHOICES = [("general", _("All the games")), *registry.choices()]


class FaqEntry(models.Model):
    # modeltranslation puts its manager here when it registers the model (reference/translation.py).
    objects: ClassVar[models.Manager[FaqEntry]]
    slug = models.SlugField(_("key"), max_length=80, unique=True)
    game = models.CharField(_("game"), max_length=16, choices=GAME_CHOICES)
    order = models.PositiveIntegerField(_("order"), default=0)
    question = models.CharField(_("question"), max_length=300)
    answer = models.TextField(_("answer"))
    source = models.CharField(_("source"), max_length=120, blank=True,
                              help_text=_("The source text the answer is based on."))

    class Meta:
        ordering = ["game", "order", "slug"]
        verbose_name = _("FAQ entry")
        verbose_name_plural = _("FAQ entries")

    def __str__(self) -> str:
        return self.question


class GlossaryTerm(models.Model):
    objects: ClassVar[models.Manager[GlossaryTerm]]
    slug = models.SlugField(_("key"), max_length=80, unique=True)
    game = models.CharField(_("game"), max_length=16, choices=GAME_CHOICES, default="general")
    order = models.PositiveIntegerField(_("order"), default=0)
    term = models.CharField(_("term"), max_length=200)
    definition = models.TextField(_("definition"))

    class Meta:
        ordering = ["game", "order", "slug"]
        verbose_name = _("glossary term")
        verbose_name_plural = _("glossary terms")

    def __str__(self) -> str:
        return self.term


class SimulationResult(models.Model):
    """Running sums of simulated deals for one game and preset (see reference/simulation.py)."""

    game = models.CharField(_("game"), max_length=16, choices=GAME_CHOICES)
    preset = models.CharField(_("preset"), max_length=40)
    players = models.PositiveSmallIntegerField(_("players"))
    games = models.PositiveIntegerField(_("games played"), default=0)
    sums = models.JSONField(_("sums"), default=dict)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "preset", "players"],
                                               name="one_result_per_variant")]
        verbose_name = _("simulation result")
        verbose_name_plural = _("simulation results")

    def __str__(self) -> str:
        return f"{self.game}/{self.preset} ({self.games})"

    @classmethod
    def load(cls, data: Mapping[str, Any]) -> int:
        """Store a statistics file's sums (reference/simulation.py) as the results; returns the
        number of rule sets."""
        count = 0
        for game, presets in data.get("games", {}).items():
            for preset, record in presets.items():
                cls.objects.update_or_create(
                    game=game, preset=preset, players=record["players"],
                    defaults={"games": record["sums"]["games"], "sums": record["sums"]})
                count += 1
        return count


class ContentVersion(models.Model):
    """One row whose token changes whenever the content the pages show from the database
    changes: ``load_content``, ``simulate``, and every save or deletion of a FAQ entry, a
    glossary term or a simulation result (the admin's edits too, ``reference/signals.py``).  Pages
    rendered once and kept (``web/pagecache.py``) put it in their cache key, so they are
    rendered again after a change.  A fresh random token rather than a count, so that a
    rolled-back change can never bring an old key back."""

    token = models.CharField(max_length=32, default="")

    class Meta:
        verbose_name = _("content version")
        verbose_name_plural = _("content versions")

    def __str__(self) -> str:
        return self.token

    # Read on every request of a page built on the content: kept in the shared cache (Redis in
    # production) for a few seconds rather than asked of the database each time.  A change
    # deletes it at once and again when its transaction commits, so another process may show
    # the old pages for at most KEPT_SECONDS (a read racing the commit).
    CACHE_KEY = "content-version"
    KEPT_SECONDS = 10

    @classmethod
    def current(cls) -> str:
        token = cache.get(cls.CACHE_KEY)
        if token is None:
            token = cls.objects.values_list("token", flat=True).filter(pk=1).first() or ""
            cache.set(cls.CACHE_KEY, token, cls.KEPT_SECONDS)
        return token

    @classmethod
    def bump(cls) -> str:
        token = uuid.uuid4().hex
        if not cls.objects.filter(pk=1).update(token=token):
            cls.objects.update_or_create(pk=1, defaults={"token": token})
        cache.delete(cls.CACHE_KEY)
        transaction.on_commit(lambda: cache.delete(cls.CACHE_KEY))
        return token
