from django.conf import settings
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0006_league_game"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    # Seat was also the name of a table's seat in games; the rows stay, the name changes.
    operations = [migrations.RenameModel("Seat", "PlayedSeat")]
