"""PracticeGame moves here from the tutorials app: the model's state only, the table stays
(renamed in 0002)."""

import uuid

from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("tutorials", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='PracticeGame',
                    fields=[
                        ('id', models.UUIDField(default=uuid.uuid4, editable=False, primary_key=True, serialize=False)),
                        ('owner', models.CharField(db_index=True, help_text="A random token kept in the owner's session.", max_length=64, verbose_name='owner')),
                        ('series', models.UUIDField(db_index=True, default=uuid.uuid4, verbose_name='series')),
                        ('deal_number', models.PositiveIntegerField(default=1, verbose_name='deal number')),
                        ('game', models.CharField(choices=[('dam', 'Dam (Svarta Maja)'), ('dolda', 'Dam med dolda kort'), ('spardame', 'Spardame')], max_length=16, verbose_name='game')),
                        ('rules', models.JSONField(default=dict, verbose_name='rules')),
                        ('names', models.JSONField(default=list, verbose_name='players')),
                        ('dealer', models.PositiveSmallIntegerField(default=0, verbose_name='dealer')),
                        ('human_seat', models.PositiveSmallIntegerField(default=0, verbose_name='human seat')),
                        ('level', models.CharField(choices=[('easy', 'Easy'), ('normal', 'Normal'), ('strong', 'Strong')], default='normal', max_length=8, verbose_name='bot level')),
                        ('memory_aid', models.BooleanField(default=True, verbose_name='memory aid')),
                        ('seed', models.BigIntegerField(default=0, verbose_name='seed')),
                        ('deal', models.JSONField(default=dict, verbose_name='deal')),
                        ('actions', models.JSONField(default=list, verbose_name='moves')),
                        ('version', models.PositiveIntegerField(default=0, verbose_name='version')),
                        ('result', models.JSONField(blank=True, null=True, verbose_name='result')),
                        ('share_token', models.UUIDField(blank=True, null=True, unique=True, verbose_name='replay link')),
                        ('created', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                        ('updated', models.DateTimeField(auto_now=True, verbose_name='updated')),
                    ],
                    options={
                        'verbose_name': 'practice game',
                        'verbose_name_plural': 'practice games',
                        'ordering': ['-updated'],
                        'db_table': 'tutorials_practicegame',
                        'indexes': [models.Index(fields=['series', 'deal_number'], name='tutorials_p_series_5d67bc_idx')],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
