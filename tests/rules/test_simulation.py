import re

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation

from rules.models import SimulationResult
from rules.simulation import Sums, estimate, estimates, play_chunk

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def small_run(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        call_command("simulate", "--games", "24", "--chunk", "8", "--workers", "2", verbosity=0)
        yield
        SimulationResult.objects.all().delete()


def flat(sums: Sums) -> dict[str, float]:
    return {f"{k}.{i}": v for k, values in sums.values.items() for i, v in enumerate(values)}


def stored(game: str, preset: str):
    result = SimulationResult.objects.get(game=game, preset=preset)
    return result, estimates(Sums.from_json(result.sums))


def test_simulate_stores_every_preset_of_every_game(small_run):
    assert SimulationResult.objects.count() == 5 + 5 + 2
    assert set(SimulationResult.objects.values_list("games", flat=True)) == {24}


def test_dam_rates_are_between_0_and_1_and_losses_add_up(small_run):
    result, est = stored("dam", "svarta-maja")
    losses = [est[f"loss_seat_{s}"] for s in range(1, 5)]
    assert all(0 <= e.low <= e.mean <= e.high <= 1 for e in losses)
    # Exactly one loser per deal (rules D-E2): the seat loss rates add up to one.
    assert sum(e.mean for e in losses) == pytest.approx(1.0)
    assert 0 <= est["first_attacker_loses"].mean <= 1
    assert 0 < est["queen_holder_loses"].n <= result.games


def test_dam_attacks_are_fewer_than_actions(small_run):
    _, est = stored("dam", "svarta-maja")
    assert 0 < est["attacks"].mean < est["actions"].mean


def test_spardame_points_per_deal_add_up_to_points_in_play_or_moon_award(small_run):
    _, est = stored("spardame", "standard")
    total = sum(est[f"points_seat_{s}"].mean for s in range(1, 5))
    moon = est["moon"].mean
    # 26 points go round each deal, 78 when someone shoots the moon.
    assert total == pytest.approx(26 * (1 - moon) + 78 * moon)


def test_dolda_winning_score_is_at_most_the_average(small_run):
    _, est = stored("dolda", "dolda-kort")
    assert est["winning_score"].mean <= est["average_score"].mean


def test_simulate_resumes_instead_of_starting_again():
    call_command("simulate", "--game", "spardame", "--preset", "standard", "--games", "10",
                 "--workers", "1", "--reset", verbosity=0)
    call_command("simulate", "--game", "spardame", "--preset", "standard", "--games", "20",
                 "--workers", "1", verbosity=0)
    resumed = SimulationResult.objects.get(game="spardame", preset="standard")
    assert resumed.games == 20
    direct = Sums.from_json(play_chunk("spardame", "standard", 1, 20))
    assert flat(Sums.from_json(resumed.sums)) == pytest.approx(flat(direct))


def test_chunks_add_up_to_one_long_run():
    a = Sums.from_json(play_chunk("dolda", "dolda-kort", 1, 3))
    a.merge(Sums.from_json(play_chunk("dolda", "dolda-kort", 4, 3)))
    assert flat(a) == pytest.approx(flat(Sums.from_json(play_chunk("dolda", "dolda-kort", 1, 6))))


def test_wilson_interval_of_a_rate_stays_inside_0_and_1():
    e = estimate("moon", 10, 0.0, 0.0, rate=True)
    assert e.low == 0.0 and 0 < e.high < 0.35


def test_mean_interval_narrows_with_more_games():
    small = estimate("actions", 10, 1000.0, 10 * 100.0**2 + 900, rate=False)
    large = estimate("actions", 1000, 100000.0, 1000 * 100.0**2 + 90000, rate=False)
    assert large.half_width < small.half_width


@pytest.mark.parametrize("language", ["sv", "fi", "nb", "en"])
def test_variant_page_draws_charts_with_text_alternatives(client, small_run, language):
    with translation.override(language):
        html = client.get(reverse("variants_dam")).content.decode()
    assert html.count("<svg") >= 5
    assert html.count('class="chart__table"') == html.count("<svg")
    assert 'role="img" aria-labelledby=' in html
    svg = "".join(part.split("</svg>")[0] for part in html.split("<svg")[1:])
    # Coordinates with a decimal comma are not numbers: the bars vanish (sv, fi, nb).
    assert not re.search(r'="-?\d+,\d', svg)
    assert re.search(r'<rect class="chart__bar" x="0" y="[\d.]+" width="[\d.]+"', svg)


def test_variant_page_marks_options_that_differ_from_the_default(client):
    with translation.override("en"):
        html = client.get(reverse("variants_dam")).content.decode()
    assert 'class="differs"' in html
    names = {"svarta-maja": "Svarta Maja (Swedish rules)", "musta-maija": "Musta Maija (Finnish rules)",
             "kolme-korttia": "Three cards", "aldre-svensk": "Older Swedish rules",
             "fast-trumf": "Fixed trump"}
    for preset, name in names.items():
        assert f'<th scope="col">{name}</th>' in html  # the rule set's name, not its slug
        assert f"preset={preset}" in html  # the slug stays in the practice link
        assert f"<code>{preset}</code>" not in html


def test_variant_page_names_rule_sets_in_the_page_language(client):
    with translation.override("sv"):
        html = client.get(reverse("variants_dam")).content.decode()
    assert "Äldre svenska regler" in html
    assert "aldre-svensk</" not in html


def test_option_values_one_and_zero_are_numbers_not_yes_and_no():
    from rules.variants import value_label

    with translation.override("en"):
        assert value_label(1) == "1"
        assert value_label(0) == "0"
        assert value_label(True) == "yes"


def test_variant_page_without_simulations_says_how_to_get_them(client):
    SimulationResult.objects.filter(game="spardame").delete()
    with translation.override("en"):
        html = client.get(reverse("variants_spardame")).content.decode()
    assert "manage.py simulate" in html


def test_variant_page_cites_the_sources_by_what_they_are_with_the_one_link_they_give(client):
    with translation.override("en"):
        html = client.get(reverse("variants_dam")).content.decode()
    for source in ("a Swedish description of Svarta Maja, which cites Swedish Wikipedia and "
                   "pagat.com", "a Finnish description of Musta Maija",
                   "the older Swedish description of Dam"):
        assert source in html
    assert '<a href="https://www.pagat.com/">pagat.com (Mustamaija)</a>' in html
    assert ".txt" not in html


@pytest.mark.parametrize("game,presets", [("dam", 5), ("dolda", 5), ("spardame", 2)])
def test_every_preset_has_a_practise_this_variant_link_that_preselects_it(client, game, presets):
    with translation.override("en"):
        html = client.get(reverse(f"variants_{game}")).content.decode()
        practice = reverse(f"practice_{game}")
    links = re.findall(rf'href="{re.escape(practice)}\?preset=([a-z0-9-]+)"', html)
    assert len(links) == presets
    for preset in links:
        with translation.override("en"):
            form = client.get(f"{practice}?preset={preset}").content.decode()
        assert re.search(rf'<option value="{preset}"[^>]*selected', form), preset
