import json
import re
import shutil

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import translation
from django.utils.formats import number_format

from games.adapters import ADAPTERS, adapter
from reference import simulation
from reference.models import SimulationResult
from reference.simulation import SHIPPED, Estimate, Sums, estimate, estimates, play_chunk
from reference.statistics import Row, conclusion, figures, formatted, formatted_range
from rules.engine.games import GAME_NAMES, game_module

pytestmark = pytest.mark.django_db

LANGUAGES = ["sv", "fi", "nb", "en"]


@pytest.fixture(scope="module")
def small_run(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        SimulationResult.objects.all().delete()
        call_command("simulate", "--games", "24", "--chunk", "8", "--workers", "2", verbosity=0)
        yield
        SimulationResult.objects.all().delete()


@pytest.fixture
def shipped(django_db_blocker):
    call_command("load_content")
    return simulation.read_shipped()


@pytest.fixture
def copy_of_shipped(tmp_path):
    path = tmp_path / "statistics.json"
    shutil.copy(SHIPPED, path)
    return path


def stored(game: str, preset: str):
    result = SimulationResult.objects.get(game=game, preset=preset)
    return result, estimates(Sums.from_json(result.sums))


def page(client, game: str, language: str) -> str:
    with translation.override(language):
        return client.get(reverse(f"variants_{game}")).content.decode()


def svgs(html: str) -> str:
    return "".join(part.split("</svg>")[0] for part in html.split("<svg")[1:])


def visible_text(html: str) -> str:
    """The page's text without tags and attribute values (SVG text content included)."""
    return re.sub(r"<[^>]*>", " ", html)


# ---------------------------------------------------------------------- the sums
def test_simulate_stores_every_preset_of_every_game(small_run):
    assert SimulationResult.objects.count() == 5 + 5 + 2
    assert set(SimulationResult.objects.values_list("games", flat=True)) == {24}


def test_dam_rates_are_between_0_and_1_and_losses_add_up(small_run):
    result, est = stored("dam", "svarta-maja")
    losses = [est[f"loss_seat_{s}"] for s in range(1, 5)]
    assert all(0 <= e.low <= e.mean <= e.high <= 1 for e in losses)
    # Exactly one loser per deal (rules D-E2): the seat loss rates add up to one.
    assert sum(e.mean for e in losses) == pytest.approx(1.0)
    assert 0 < est["queen_holder_loses"].n <= result.games


def test_dam_attacks_are_fewer_than_moves(small_run):
    _, est = stored("dam", "svarta-maja")
    assert 0 < est["attacks"].mean < est["moves"].mean


def test_dam_records_no_first_attacker_row_that_repeats_seat_1(small_run):
    # The dealer is the last seat, so the first attacker is always seat 1 (D-S4).
    _, est = stored("dam", "svarta-maja")
    assert "first_attacker_loses" not in est


def test_spardame_points_per_deal_add_up_to_points_in_play_or_moon_award(small_run):
    _, est = stored("spardame", "standard")
    total = sum(est[f"points_seat_{s}"].mean for s in range(1, 5))
    moon = est["moon"].mean
    assert est["in_play"].mean == 26
    # 26 points go round each deal, 78 when someone shoots the moon (S-C2).
    assert total == pytest.approx(26 * (1 - moon) + 78 * moon)


def test_spardame_records_no_move_count_that_cannot_vary(small_run):
    _, est = stored("spardame", "standard")
    assert not {"moves", "actions"} & set(est)


def test_dolda_every_deal_has_a_winner_and_ties_add_the_extra_ones(small_run):
    result, est = stored("dolda", "dolda-kort")
    wins = sum(est[f"win_seat_{s}"].mean for s in range(1, 5))
    assert 1 <= wins <= 1 + 3 * est["tie"].mean + 1e-9


def test_dolda_thief_measures_only_for_rule_sets_with_thieves(small_run):
    _, plain = stored("dolda", "dolda-kort")
    _, advanced = stored("dolda", "avancerad")
    assert "steal" not in plain and "thief_changes_winner" not in plain
    assert advanced["thief_changes_winner"].mean <= advanced["steal"].mean


def test_simulate_resumes_instead_of_starting_again():
    call_command("simulate", "--game", "spardame", "--preset", "standard", "--games", "10",
                 "--workers", "1", "--reset", verbosity=0)
    call_command("simulate", "--game", "spardame", "--preset", "standard", "--games", "20",
                 "--workers", "1", verbosity=0)
    resumed = SimulationResult.objects.get(game="spardame", preset="standard")
    assert resumed.games == 20
    assert resumed.sums == play_chunk("spardame", "standard", 1, 20)


@pytest.mark.parametrize("game,preset", [("dam", "kolme-korttia"), ("dolda", "avancerad"),
                                         ("spardame", "husregler")])
def test_chunks_add_up_exactly_to_one_long_run(game, preset):
    a = Sums.from_json(play_chunk(game, preset, 1, 3))
    a.merge(Sums.from_json(play_chunk(game, preset, 4, 3)))
    assert a.to_json() == play_chunk(game, preset, 1, 6)


def test_every_measure_is_a_whole_number_so_the_sums_are_exact():
    for game in GAME_NAMES:
        for preset in game_module(game).PRESETS:
            for n, s, ss in play_chunk(game, preset, 1, 2)["values"].values():
                assert all(type(v) is int for v in (n, s, ss)), (game, preset)


def test_wilson_interval_of_a_rate_stays_inside_0_and_1():
    e = estimate("moon", 10, 0.0, 0.0, rate=True)
    assert e.low == 0.0 and 0 < e.high < 0.35


def test_mean_interval_narrows_with_more_games():
    small = estimate("actions", 10, 1000.0, 10 * 100.0**2 + 900, rate=False)
    large = estimate("actions", 1000, 100000.0, 1000 * 100.0**2 + 90000, rate=False)
    assert large.half_width < small.half_width


# ---------------------------------------------------------------------- the shipped file
def test_shipped_statistics_match_the_engine_presets_and_bots():
    # Fails after a rule, preset, bot or measure change: regenerate with `simulate --write`.
    call_command("simulate", "--check", verbosity=0)


def test_shipped_statistics_cover_every_preset_with_the_same_useful_deal_count():
    data = simulation.read_shipped()
    counts = {(g, p): data["games"][g][p]["sums"]["games"]
              for g in GAME_NAMES for p in game_module(g).PRESETS}
    assert set(counts.values()) == {simulation.SHIPPED_DEALS}
    assert simulation.SHIPPED_DEALS >= 2000


def test_shipped_file_is_written_exactly_as_simulate_writes_it():
    text = SHIPPED.read_text(encoding="utf-8")
    assert simulation.dump(json.loads(text)) == text


def test_check_names_the_regenerate_command_when_the_sample_plays_differently(copy_of_shipped):
    data = json.loads(copy_of_shipped.read_text())
    data["games"]["dam"]["svarta-maja"]["sample"]["moves_sha256"] = "0" * 64
    copy_of_shipped.write_text(json.dumps(data))
    with pytest.raises(CommandError) as err:
        call_command("simulate", "--check", "--file", str(copy_of_shipped), verbosity=0)
    assert "dam/svarta-maja: the sample deals play differently" in str(err.value)
    assert "Regenerate it with: .venv/bin/python manage.py simulate --write" in str(err.value)


def test_check_fails_when_a_preset_changes(copy_of_shipped, monkeypatch):
    module = game_module("spardame")
    monkeypatch.setitem(module.PRESETS, "husregler", {**module.PRESETS["husregler"], "limit": 100})
    with pytest.raises(CommandError, match="spardame/husregler: the preset's options changed"):
        call_command("simulate", "--check", "--file", str(copy_of_shipped), verbosity=0)


def test_check_fails_when_a_preset_is_added(copy_of_shipped, monkeypatch):
    module = game_module("dolda")
    monkeypatch.setitem(module.PRESETS, "nytt", {"row_size": 7, "secret_card": True})
    with pytest.raises(CommandError, match="dolda/nytt: missing"):
        call_command("simulate", "--check", "--file", str(copy_of_shipped), verbosity=0)


def test_check_fails_when_the_measures_change(copy_of_shipped, monkeypatch):
    statistics = type(adapter("spardame")).add_statistics

    def more(self, sums, deal):
        statistics(self, sums, deal)
        sums.add("tricks", 13)

    monkeypatch.setattr(type(adapter("spardame")), "add_statistics", more)
    with pytest.raises(CommandError, match="spardame/standard: the measures of the sample"):
        call_command("simulate", "--check", "--file", str(copy_of_shipped), verbosity=0)


def test_check_full_plays_every_deal_again(tmp_path):
    path = tmp_path / "statistics.json"
    call_command("simulate", "--write", "--game", "spardame", "--games", "30", "--workers", "1",
                 "--file", str(path), verbosity=0)
    data = json.loads(path.read_text())
    data["games"]["spardame"]["standard"]["sums"]["values"]["moon"][1] += 1  # a moon too many
    path.write_text(json.dumps(data))
    call_command("simulate", "--check", "--game", "spardame", "--file", str(path), verbosity=0)
    with pytest.raises(CommandError, match="spardame/standard: the full run gives other sums"):
        call_command("simulate", "--check", "--full", "--game", "spardame", "--file", str(path),
                     verbosity=0)


def test_write_gives_the_same_bytes_whatever_the_chunks_and_workers(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    call_command("simulate", "--write", "--game", "spardame", "--games", "30", "--chunk", "7",
                 "--workers", "1", "--file", str(a), verbosity=0)
    call_command("simulate", "--write", "--game", "spardame", "--games", "30", "--chunk", "30",
                 "--workers", "2", "--file", str(b), verbosity=0)
    assert a.read_bytes() == b.read_bytes()
    data = json.loads(a.read_text())
    assert data["games"]["spardame"]["husregler"]["sums"]["games"] == 30
    call_command("simulate", "--check", "--full", "--game", "spardame", "--file", str(a),
                 verbosity=0)


def test_load_content_loads_the_shipped_statistics(shipped):
    for game in GAME_NAMES:
        for preset, record in shipped["games"][game].items():
            result = SimulationResult.objects.get(game=game, preset=preset)
            assert result.games == record["sums"]["games"]
            assert result.sums == record["sums"]


def test_setup_plays_no_deals():
    from pathlib import Path

    makefile = (Path(simulation.__file__).resolve().parents[1] / "Makefile").read_text()
    recipes = [line for line in makefile.splitlines() if line.startswith("\t")]
    assert any("manage.py load_content" in line for line in recipes)
    assert not any("manage.py simulate" in line for line in recipes)


# ---------------------------------------------------------------------- the figures
@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_figure_is_a_percentage_or_a_count_of_moves(game):
    # Points are never compared raw: the rule sets score on different scales (1/13, 10/100).
    for figure in adapter(game).statistics_figures():
        assert figure.unit in ("percent", "count")
        if figure.unit == "count":
            assert figure.key in ("attacks", "moves", "turns"), figure.key


def test_spardame_point_figures_are_the_same_on_any_point_scale():
    sums = Sums.from_json(play_chunk("spardame", "standard", 1, 40))
    tenfold = Sums(sums.games, {k: [n, s * 10, ss * 100] if k in ("in_play", "top")
                                or k.startswith("points_seat_") else [n, s, ss]
                                for k, (n, s, ss) in sums.values.items()})
    labels = {"standard": "Standard"}
    with translation.override("en"):
        once = figures("spardame", {"standard": sums}, labels)
        again = figures("spardame", {"standard": tenfold}, labels)
    assert [f["chart"] for f in once] == [f["chart"] for f in again]
    assert any(f["key"] == "top" for f in once)


def test_a_measure_that_cannot_vary_is_not_shown():
    sums = Sums(10, {"moon": [10, 2, 2], "in_play": [10, 260, 6760], "top": [10, 200, 4100]})
    keys = [f["key"] for f in figures("spardame", {"standard": sums}, {"standard": "S"})]
    assert keys == ["moon", "top"]
    constant = Sums(10, {"moves": [10, 560, 31360]})
    assert figures("dam", {"svarta-maja": constant}, {"svarta-maja": "S"}) == []


@pytest.mark.parametrize("game", GAME_NAMES)
def test_no_figure_repeats_another(shipped, game):
    results = {p: Sums.from_json(r["sums"]) for p, r in shipped["games"][game].items()}
    with translation.override("en"):
        shown = figures(game, results, {p: p for p in results})
    values = [tuple(r.value for _h, rows in f["groups"] for r in rows) for f in shown]
    assert len(set(values)) == len(values)
    for f in shown:
        for _heading, rows in f["groups"]:
            assert len({r.label for r in rows}) == len(rows)


def test_queen_holder_figure_counts_only_deals_where_she_was_dealt(shipped):
    record = shipped["games"]["dam"]["kolme-korttia"]["sums"]
    # With 3 cards each, 12 of the 52 cards are dealt: she lies in the stock most deals.
    assert record["values"]["queen_holder_loses"][0] < record["games"] / 2


# ---------------------------------------------------------------------- the pages
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAME_NAMES)
def test_statistics_page_draws_charts_with_numeric_coordinates(client, shipped, game, language):
    html = page(client, game, language)
    assert html.count("<svg") >= 3
    assert html.count('class="chart__table"') == html.count("<svg")
    assert 'role="img" aria-labelledby=' in html
    svg = svgs(html)
    # Coordinates with a decimal comma are not numbers: the bars vanish (sv, fi, nb).
    # Across in per cent of the column, down in pixels.
    for name, value in re.findall(r'\s(viewBox|x|y|x1|x2|y1|y2|width|height|dx)="([^"]*)"', svg):
        assert re.fullmatch(r"-?\d+(\.\d+)?%?( -?\d+(\.\d+)?)*", value), (name, value)
    assert re.search(r'<rect class="chart__bar" x="[\d.]+%" y="[\d.]+" width="[\d.]+%"', svg)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAME_NAMES)
def test_statistics_page_parses_as_html_without_errors(client, shipped, game, language):
    import html5lib

    parser = html5lib.HTMLParser(strict=False)
    parser.parse(page(client, game, language))
    assert parser.errors == []


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAME_NAMES)
def test_statistics_page_shows_the_stored_deal_count(client, shipped, game, language):
    text = visible_text(page(client, game, language))
    with translation.override(language):
        count = number_format(simulation.SHIPPED_DEALS, force_grouping=True)
        sentence = translation.ngettext("Based on %(count)s simulated deal per rule set.",
                                        "Based on %(count)s simulated deals per rule set.",
                                        simulation.SHIPPED_DEALS) % {"count": count}
    assert sentence in text
    assert "thousands" not in text and "tusentals" not in text


def test_deal_count_is_singular_for_one_deal(client):
    call_command("simulate", "--game", "spardame", "--games", "1", "--workers", "1",
                 "--reset", verbosity=0)
    text = visible_text(page(client, "spardame", "en"))
    assert "Based on 1 simulated deal per rule set." in text


def test_deal_count_per_rule_set_when_the_counts_differ(client):
    call_command("simulate", "--game", "spardame", "--preset", "standard", "--games", "3",
                 "--workers", "1", "--reset", verbosity=0)
    call_command("simulate", "--game", "spardame", "--preset", "husregler", "--games", "4",
                 "--workers", "1", "--reset", verbosity=0)
    from reference.variants import preset_label

    text = visible_text(page(client, "spardame", "sv"))
    with translation.override("sv"):
        standard, house = preset_label("spardame", "standard"), preset_label("spardame", "husregler")
    assert f"{standard}: 3 simulerade givar" in text
    assert f"{house}: 4 simulerade givar" in text


@pytest.mark.parametrize("language", ["sv", "fi", "nb"])
def test_statistics_text_uses_the_decimal_comma(client, shipped, language):
    html = page(client, "dam", language)
    section = visible_text(html.split('id="statistics"')[1])
    assert re.search(r"\d+,\d\xa0%", section)
    assert not re.search(r"\d\.\d", section)


def test_statistics_text_in_english_uses_the_decimal_point(client, shipped):
    section = visible_text(page(client, "dam", "en").split('id="statistics"')[1])
    assert re.search(r"\d+\.\d%", section)
    assert not re.search(r"\d,\d", section.replace("10,000", ""))


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_figure_on_the_page_is_marked_with_its_unit(client, shipped, game):
    html = page(client, game, "en")
    units = re.findall(r'<figure class="chart" id="stat-[a-z_]+" data-unit="([a-z]+)"', html)
    assert units and set(units) <= {"percent", "count"}
    assert len(units) == len(adapter(game).statistics_figures())


def test_spardame_page_shows_no_move_count(client, shipped):
    html = page(client, "spardame", "en")
    assert 'id="stat-moves"' not in html
    assert "Moves in a deal" not in visible_text(html)


def test_seat_charts_say_where_seat_1_sits(client, shipped):
    text = visible_text(page(client, "dam", "en"))
    assert "seat 1 attacks first, the last seat is the dealer" in text
    assert "equal share for every seat (25%)" in text


def test_every_game_has_an_adapter_with_figures():
    assert all(a.statistics_figures() for a in ADAPTERS.values())


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
    from reference.variants import value_label

    with translation.override("en"):
        assert value_label(1) == "1"
        assert value_label(0) == "0"
        assert value_label(True) == "yes"


def test_variant_page_without_statistics_says_how_to_get_them(client):
    SimulationResult.objects.filter(game="spardame").delete()
    with translation.override("en"):
        html = client.get(reverse("variants_spardame")).content.decode()
    assert "manage.py load_content" in html


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


def test_share_column_is_headed_as_a_proportion_not_as_a_verb(client, shipped):
    text = visible_text(page(client, "spardame", "sv"))
    assert "Andel" in text and not re.search(r"\bDela\b", text)


# ---------------------------------------------------------------------- rounding, conclusions
def test_figures_are_rounded_to_the_nearest_tenth_not_cut_off():
    """number_format cut 22.47 to "22.4" and 1.69 % to "1.6 %": every bound could be low."""
    with translation.override("en"):
        assert formatted(22.47, "count") == "22.5"
        assert formatted(0.0169, "percent") == "1.7%"
        assert formatted(22.45, "count") == "22.5"  # half up, as people round
        assert formatted_range(0.2247, 0.2599, "percent") == "22.5–26.0%"
        assert formatted_range(1.96, 2.04, "count") == "2.0–2.0"
    with translation.override("sv"):
        assert formatted(22.47, "count") == "22,5"


def row(label: str, mean: float, half: float) -> Row:
    return Row(label, Estimate("k", 10_000, mean, mean - half, mean + half, True), "percent")


def test_a_conclusion_names_the_rule_sets_whose_intervals_do_not_overlap():
    with translation.override("en"):
        apart = conclusion([(None, [row("Swedish", 0.30, 0.01), row("Finnish", 0.25, 0.01),
                                    row("Old", 0.27, 0.01)])], by_seat=False)
        close = conclusion([(None, [row("Swedish", 0.26, 0.01), row("Finnish", 0.25, 0.01)])],
                           by_seat=False)
        seats = conclusion([("Swedish", [row("Seat 1", 0.25, 0.01), row("Seat 2", 0.25, 0.01)]),
                            ("Old", [row("Seat 1", 0.22, 0.01), row("Seat 2", 0.28, 0.01)])],
                           by_seat=True)
        even = conclusion([("Swedish", [row("Seat 1", 0.25, 0.01), row("Seat 2", 0.26, 0.01)])],
                          by_seat=True)
    assert apart == ("The figure is clearly higher for “Swedish” (30.0%) than for “Finnish” "
                     "(25.0%): their intervals do not overlap.")
    assert close == ("The rule sets differ by no more than chance: every interval overlaps "
                     "the others.")
    assert seats == ("The seat matters in “Old”: seat 2 comes out at 28.0% against 22.0% for "
                     "seat 1, and the intervals do not overlap.")
    assert even.startswith("In every rule set the seats differ by no more than chance")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_chart_has_a_one_sentence_conclusion(client, shipped, language):
    for game in GAME_NAMES:
        html = page(client, game, language)
        conclusions = re.findall(r'<p class="chart__conclusion">([^<]+)</p>', html)
        assert len(conclusions) == html.count("<svg"), game
        assert all(c.count(". ") == 0 and c.endswith(".") for c in conclusions), conclusions
