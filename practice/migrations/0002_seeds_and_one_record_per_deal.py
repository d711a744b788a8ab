"""A 128-bit deal seed apart from the bots' stream, one record per deal of a series, and the
table under the practice app's name."""

from django.db import migrations, models


def keep_old_games(apps, schema_editor):
    """Games stored before the split keep their bots (their stream was the deal seed), and of
    two records a double click made for one deal only the first stays."""
    PracticeGame = apps.get_model("practice", "PracticeGame")
    for game in PracticeGame.objects.only("pk", "seed").iterator():
        PracticeGame.objects.filter(pk=game.pk).update(bot_seed=int(game.seed or 0))
    seen = set()
    for game in PracticeGame.objects.order_by("series", "deal_number", "created").only(
            "pk", "series", "deal_number").iterator():
        key = (game.series, game.deal_number)
        if key in seen:
            PracticeGame.objects.filter(pk=game.pk).delete()
        seen.add(key)


class Migration(migrations.Migration):

    dependencies = [
        ('practice', '0001_initial'),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name='practicegame',
            name='tutorials_p_series_5d67bc_idx',
        ),
        migrations.AddField(
            model_name='practicegame',
            name='bot_seed',
            field=models.BigIntegerField(default=0, verbose_name='bot seed'),
        ),
        migrations.AlterField(
            model_name='practicegame',
            name='seed',
            field=models.CharField(default='0', max_length=40, verbose_name='seed'),
        ),
        migrations.RunPython(keep_old_games, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name='practicegame',
            constraint=models.UniqueConstraint(fields=('series', 'deal_number'), name='practice_one_record_per_deal'),
        ),
        migrations.AlterModelTable(
            name='practicegame',
            table=None,
        ),
    ]
