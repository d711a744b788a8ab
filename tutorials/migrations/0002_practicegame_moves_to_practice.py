"""PracticeGame now belongs to the practice app (practice 0001 takes over its table)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("tutorials", "0001_initial"),
        ("practice", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="PracticeGame")],
            database_operations=[],
        ),
    ]
