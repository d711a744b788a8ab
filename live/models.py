"""Live classroom sessions: a presentation the teacher steps through while students follow.

The row is the one truth every app server reads: which presentation, its current step and
seat, the question (if any) and ``version``, raised by every change the teacher makes, so a
follower can tell a new state from one it has shown.  Answers are one row per student and
question (a unique constraint), so a second answer from the same phone replaces the first
instead of counting twice.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class LiveSession(models.Model):
    NO_QUESTION, OPEN, REVEALED = "", "open", "revealed"

    code = models.CharField(_("join code"), max_length=8, unique=True)
    teacher_key = models.CharField(_("teacher key"), max_length=64)
    kind = models.CharField(_("presentation kind"), max_length=16)  # scenario / tutorial
    ref = models.CharField(_("presentation"), max_length=80)  # share code / game/slug
    step = models.IntegerField(_("step"))
    seat = models.IntegerField(_("seat"), null=True, blank=True)  # None: every hand open
    version = models.IntegerField(_("version"), default=1)
    question = models.IntegerField(_("question number"), default=0)
    question_state = models.CharField(_("question state"), max_length=8, blank=True,
                                      default=NO_QUESTION)
    show_names = models.BooleanField(_("show names"), default=False)
    # The language the teacher presents in (their page's): students' phones follow in their
    # own, and are told this one and offered it.
    language = models.CharField(_("language"), max_length=8, blank=True, default="")
    created = models.DateTimeField(_("created"), auto_now_add=True)
    expires = models.DateTimeField(_("expires"))
    ended = models.DateTimeField(_("ended"), null=True, blank=True)
    # When the teacher split the class into tables (``tables.classes``): once per session.
    split = models.DateTimeField(_("split into tables"), null=True, blank=True)

    class Meta:
        verbose_name = _("live session")
        verbose_name_plural = _("live sessions")

    def __str__(self) -> str:
        return f"{self.code} {self.kind} {self.ref} step {self.step}"


class LiveStudent(models.Model):
    session = models.ForeignKey(LiveSession, on_delete=models.CASCADE, related_name="students")
    name = models.CharField(_("display name"), max_length=40, blank=True)
    joined = models.DateTimeField(_("joined"), auto_now_add=True)

    class Meta:
        verbose_name = _("live student")
        verbose_name_plural = _("live students")


class LiveAnswer(models.Model):
    session = models.ForeignKey(LiveSession, on_delete=models.CASCADE, related_name="answers")
    student = models.ForeignKey(LiveStudent, on_delete=models.CASCADE, related_name="answers")
    question = models.IntegerField(_("question number"))
    choice = models.CharField(_("move"), max_length=200)
    answered = models.DateTimeField(_("answered"), auto_now=True)

    class Meta:
        verbose_name = _("live answer")
        verbose_name_plural = _("live answers")
        constraints = [models.UniqueConstraint(fields=["student", "question"],
                                               name="live_one_answer_per_question")]
        indexes = [models.Index(fields=["session", "question"])]


class LiveQuestion(models.Model):
    """A question as it was asked: the step and seat it was asked at and the lesson's move, so
    the class summary can tell right from wrong after the session has moved on."""

    session = models.ForeignKey(LiveSession, on_delete=models.CASCADE, related_name="questions")
    number = models.IntegerField(_("question number"))
    step = models.IntegerField(_("step"))
    seat = models.IntegerField(_("seat"), null=True, blank=True)
    lesson = models.CharField(_("the lesson's move"), max_length=200)
    # Whether the projector showed who answered what while this question was up: only then
    # does the summary name the students.
    names_shown = models.BooleanField(_("names shown"), default=False)

    class Meta:
        verbose_name = _("live question")
        verbose_name_plural = _("live questions")
        constraints = [models.UniqueConstraint(fields=["session", "number"],
                                               name="live_one_row_per_question")]
