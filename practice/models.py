"""Practice games: a game record (rules, deal, seeds, moves) owned by a browser session."""

from __future__ import annotations

import uuid

from django.db import models
from django.utils.translation import gettext_lazy as _

from games import registry

GAME_CHOICES = registry.choices()
LEVEL_CHOICES = [
    ("easy", _("Easy")),
    ("normal", _("Normal")),
    ("strong", _("Strong")),
]


class PracticeGame(models.Model):
    """One deal against bots.  Deals of one session of Dam, one Dam med dolda kort match or one
    Spardame match share ``series``.  The record only grows by appending a legal move under
    ``version`` (optimistic concurrency); undo truncates ``actions``."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.CharField(_("owner"), max_length=64, db_index=True,
                             help_text=_("A random token kept in the owner's session."))
    series = models.UUIDField(_("series"), default=uuid.uuid4, db_index=True)
    deal_number = models.PositiveIntegerField(_("deal number"), default=1)
    game = models.CharField(_("game"), max_length=16, choices=GAME_CHOICES)
    rules = models.JSONField(_("rules"), default=dict)
    names = models.JSONField(_("players"), default=list)
    dealer = models.PositiveSmallIntegerField(_("dealer"), default=0)
    human_seat = models.PositiveSmallIntegerField(_("human seat"), default=0)
    level = models.CharField(_("bot level"), max_length=8, choices=LEVEL_CHOICES,
                             default="normal")
    memory_aid = models.BooleanField(_("memory aid"), default=True)
    # The deal's random source (scenario ``seed``): 128 bits, so a stored deal cannot be
    # rebuilt by trying seeds; kept as decimal digits (no database integer holds 128 bits).
    seed = models.CharField(_("seed"), max_length=40, default="0")
    # The bots' and hints' random stream, apart from the deal's.
    bot_seed = models.BigIntegerField(_("bot seed"), default=0)
    deal = models.JSONField(_("deal"), default=dict)
    actions = models.JSONField(_("moves"), default=list)
    version = models.PositiveIntegerField(_("version"), default=0)
    result = models.JSONField(_("result"), null=True, blank=True)
    share_token = models.UUIDField(_("replay link"), null=True, blank=True, unique=True)
    # The post-game review (service.review_step): the decisions analysed so far, in order.
    review = models.JSONField(_("review"), null=True, blank=True)
    # A puzzle ("try it again" from a review) replays the first ``puzzle_from`` moves of the
    # deal it came from, with the same deal and seeds; undo stops there.
    puzzle_of = models.ForeignKey("self", verbose_name=_("puzzle of"), null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="puzzles")
    puzzle_from = models.PositiveIntegerField(_("puzzle starts at move"), default=0)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["-updated"]
        verbose_name = _("practice game")
        verbose_name_plural = _("practice games")
        # One record per deal of a series: a second "Next deal" finds the first one's.
        constraints = [models.UniqueConstraint(fields=["series", "deal_number"],
                                               name="practice_one_record_per_deal")]

    def __str__(self) -> str:
        return f"{self.game} {self.id} ({len(self.actions)})"


class Analysis(models.Model):
    """The coach's one analysis of one decision of a practice game (service.analysis): the
    hint shows its best move and the review judges the played move by it.  Known by the game
    record, the decision's index (the moves before it) and a digest of those moves, so an undo
    that leads to the same position finds it again and one that changes it does not."""

    record = models.ForeignKey(PracticeGame, verbose_name=_("practice game"),
                               on_delete=models.CASCADE, related_name="analyses")
    index = models.PositiveIntegerField(_("move index"))
    digest = models.CharField(_("position digest"), max_length=64)
    # Every candidate, best first: {"action", "mean", "playouts", "behind", "se"}; and, when
    # the review needed it, the played move raced against the best ("compared").
    ranked = models.JSONField(_("estimates"), default=list)
    compared = models.JSONField(_("played move compared"), null=True, blank=True)
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("analysis")
        verbose_name_plural = _("analyses")
        constraints = [models.UniqueConstraint(fields=["record", "index", "digest"],
                                               name="practice_one_analysis_per_decision")]

    def __str__(self) -> str:
        return f"{self.record_id} #{self.index}"
