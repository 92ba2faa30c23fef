"""The RL environments (hoola.rl): the frameworks' own suites, and what they do not catch: no
observation shows a hidden card, the mask is the engine's legal list, rewards reach the right
seats, and every episode writes a record that verifies and replays from its seed."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hoola.bots import RandomBot
from hoola.core.driver import next_action
from hoola.core.game import Game, GameState
from hoola.core.records import verify_text
from hoola.core.registry import get_game
from hoola.rl import encoding_for, env, gym_env, parallel_env
from hoola.rl.episode import Episode

pytest.importorskip("pettingzoo")
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

# Every family at two table sizes, and the presets that change the action set or the table.
SUITES = [("sedma", 2), ("sedma", 4), ("hola", 4), ("sedmice", 4), ("ristikontra", 2),
          ("hoola", 2), ("hoola", 4), ("glenn", 3), ("online", 4), ("kalookie", 2),
          ("kalookie", 4), ("scarne", 3), ("three-deck", 4)]


def _game(name: str) -> tuple[Game, Any]:
    from hoola.rl import resolve_game

    return resolve_game(name)


@pytest.mark.parametrize(("name", "players"), SUITES)
def test_pettingzoo_and_gymnasium_suites(name: str, players: int) -> None:
    api_test(env(name, players=players), num_cycles=400)
    parallel_api_test(parallel_env(name, players=players), num_cycles=400)
    seed_test(lambda: env(name, players=players), num_cycles=400)
    parallel_seed_test(lambda: parallel_env(name, players=players), num_cycles=400)
    check_env(gym_env(name, players=players), skip_render_check=True)


def states(name: str, players: int, seed: int) -> Iterator[GameState]:
    """Every state of a random deal of ``name`` (a copy each), windows included."""
    game, rules = _game(name)
    state = game.new_deal(rules, [f"P{q}" for q in range(players)], seed=seed)
    bots = [RandomBot(seed=seed * 10 + q) for q in range(players)]
    rng = random.Random(seed)
    while not state.is_over:
        yield state
        state.apply(next_action(state, bots, counter=rng.randrange(9)))


PRESETS = [("sedma", 2), ("sedma", 4), ("hola", 4), ("hola", 6), ("sedmice", 4),
           ("sedmice-croatian", 4), ("ristikontra", 4), ("ristiklappi", 2),
           *[(p.name, n) for p in get_game("hoola").presets() for n in (2, 4)],
           *[(p.name, n) for p in get_game("kalookie").presets() for n in (2, 4)]]


def observed(encoding: Any, view: Any) -> tuple[bytes, bytes, str]:
    return (encoding.observe(view).tobytes(), encoding.mask(view).tobytes(),
            encoding.text(view))


@pytest.mark.parametrize(("name", "players"), PRESETS)
def test_no_observation_shows_a_card_its_seat_cannot_see(name: str, players: int) -> None:
    """Resampling every card a seat cannot see (the game's own determinize) leaves its
    observation, mask and text unchanged: the leak of a defender's hand through a tensor whose
    string was right cannot happen here."""
    game, rules = _game(name)
    encoding = encoding_for(game, rules, players)
    rng = random.Random(1)
    checked = 0
    for seed in range(3):
        for state in states(name, players, seed):
            for seat in range(players):
                view = state.view(seat)
                other = game.determinize(view, rng).view(seat)
                assert observed(encoding, other) == observed(encoding, view), \
                    f"seat {seat} sees a hidden card ({name}, seed {seed}, " \
                    f"{len(state.history)} actions)"
                checked += 1
    assert checked > 100


@pytest.mark.parametrize(("name", "players"), [("kalookie", 2), ("scarne", 3),
                                               ("three-deck", 4)])
def test_kalookies_action_features_follow_the_legal_ids_and_show_no_hidden_card(
        name: str, players: int) -> None:
    """A network scoring actions is given one row of features a legal id, in the order of
    ``legal_ids`` (the pass a row of zeros), built from the view alone."""
    game, rules = _game(name)
    encoding = encoding_for(game, rules, players)
    rng = random.Random(2)
    checked = 0
    for state in states(name, players, 4):
        for seat in state.actors():
            view = state.view(seat)
            legal = encoding.legal_ids(view)
            rows = encoding.features_of(view, legal.values())
            assert rows.shape == (len(legal), encoding.feature_size)
            kinds = rows[:, :10]
            assert all(kinds[i].sum() == (0 if action is None else 1)
                       for i, action in enumerate(legal.values()))
            other = game.determinize(view, rng).view(seat)
            assert np.array_equal(encoding.features_of(other, encoding.legal_ids(other).values()),
                                  rows)
            checked += 1
    assert checked > 30


def test_the_leak_check_catches_a_planted_card() -> None:
    """An encoding that lets one hidden card through is caught by the same comparison."""
    game, rules = _game("pagat")
    encoding = encoding_for(game, rules, 4)

    class Leaky(type(encoding)):  # type: ignore[misc]
        def fill(self, view: Any, out: Any) -> None:
            super().fill(view, out)
            hidden = self.state.hand((view.player + 1) % 4)
            out[self.hand.start + hidden[0]] += 0.5  # the next seat's first card

    leaky = Leaky(game, rules, 4)
    rng = random.Random(2)
    caught = 0
    for state in states("pagat", 4, 0):
        leaky.state = state
        view = state.view(0)
        other = game.determinize(view, rng)
        before = leaky.observe(view).tobytes()
        leaky.state = other
        if leaky.observe(other.view(0)).tobytes() != before:
            caught += 1
    assert caught > 0


@pytest.mark.parametrize(("name", "players"), PRESETS)
def test_the_mask_is_the_legal_list(name: str, players: int) -> None:
    game, rules = _game(name)
    encoding = encoding_for(game, rules, players)
    for state in states(name, players, 5):
        for seat in state.actors():
            view = state.view(seat)
            mask = encoding.mask(view)
            assert mask.shape == (encoding.size,)
            assert int(mask.sum()) == len(view.legal) + view.can_pass
            assert bool(mask[encoding.pass_id]) == view.can_pass
            for action in view.legal:
                assert encoding.action(view, encoding.action_id(view, action)) == action
        assert encoding.observe(state.view(0)).shape == (encoding.obs_size,)


@pytest.mark.parametrize("preset", [p.name for p in get_game("kalookie").presets()])
def test_every_meld_the_engine_lists_has_an_id(preset: str) -> None:
    """A hand of every card and joker the packs hold lays every meld the engine can list
    (Scarne's sets of jokers alone included): each needs an id."""
    from hoola.games.kalookie.melds import find_melds
    from hoola.rl.kalookie import meld_keys

    rules = get_game("kalookie").rules(preset)
    keys = meld_keys(rules.decks)
    melds = find_melds([rules.decks] * 52, rules.jokers, rules)
    missing = [m for m in melds if tuple(sorted(m)) not in keys]
    assert melds and not missing


def test_an_id_that_is_not_legal_is_refused_and_changes_nothing() -> None:
    game, rules = _game("pagat")
    episode = Episode(game, rules, 4, seed=1)
    seat = episode.seat
    assert seat is not None
    illegal = int(np.flatnonzero(episode.mask(seat) == 0)[0])
    history = len(episode.state.history)
    with pytest.raises(ValueError, match="not legal now"):
        episode.step(seat, illegal)
    with pytest.raises(ValueError, match="may not decide now"):
        episode.step((seat + 1) % 4, int(np.flatnonzero(episode.mask(seat))[0]))
    assert len(episode.state.history) == history
    aec = env("pagat", players=4)
    aec.reset(seed=1)
    agent = aec.agent_selection
    aec.step(illegal)
    assert aec.terminations[agent] and aec.rewards[agent] == -1.0
    assert aec.infos[agent]["illegal"] == agent


def play_out(episode: Episode, rng: random.Random) -> None:
    while not episode.done:
        seat = episode.seat
        assert seat is not None
        episode.step(seat, int(rng.choice(np.flatnonzero(episode.mask(seat)))))


@pytest.mark.parametrize(("name", "players", "deals"),
                         [("pagat", 4, 2), ("online", 5, 1), ("hola", 4, 2), ("sedma", 2, 3),
                          ("ristikontra", 4, 1)])
def test_episodes_write_records_that_verify_and_replay_from_their_seed(
        name: str, players: int, deals: int) -> None:
    game, rules = _game(name)
    texts = []
    for _ in range(2):
        episode = Episode(game, rules, players, deals=deals, seed=11)
        play_out(episode, random.Random(4))
        text = episode.record_text()
        verdict = verify_text(text)
        assert verdict.ok, verdict.problems
        texts.append(text)
    assert texts[0] == texts[1]


@given(seed=st.integers(0, 10_000))
def test_rewards_are_each_seats_own_and_a_partnership_shares_its_sides(seed: int) -> None:
    game, rules = _game("hola")
    episode = Episode(game, rules, 4, seed=seed)
    got = [0.0] * 4
    rng = random.Random(seed)
    while not episode.done:
        seat = episode.seat
        assert seat is not None
        episode.step(seat, int(rng.choice(np.flatnonzero(episode.mask(seat)))))
        got = [g + r for g, r in zip(got, episode.rewards, strict=True)]
    returns = [float(r) for r in episode.state.returns()]
    assert got == returns
    for side in game.teams(rules, 4) or ():
        assert len({got[q] for q in side}) == 1


def test_a_claim_window_is_polled_in_a_seeded_order_and_settled_by_resolve() -> None:
    """Hoola: every seat of a window decides before anything is played, the order is the
    seed's, and the claim stands as the game's resolve says (recorded in info)."""
    game, rules = _game("pagat")
    orders = set()
    windows = 0
    for seed in range(40):
        episode = Episode(game, rules, 4, seed=seed)
        rng = random.Random(seed)
        while not episode.done and windows < 60:
            asked = list(episode.waiting)
            if len(asked) > 1:
                windows += 1
                history = len(episode.state.history)
                for seat in asked[:-1]:
                    view = episode.view(seat)
                    episode.step(seat, int(rng.choice(np.flatnonzero(episode.mask(seat)))))
                    assert len(episode.state.history) == history  # hidden until it closes
                    assert episode.view(seat) is view
                last = asked[-1]
                episode.step(last, int(rng.choice(np.flatnonzero(episode.mask(last)))))
                assert episode.arrivals == [] or episode.arrivals[:len(asked)] == asked
                orders.add(tuple(asked))
            else:
                seat = episode.seat
                assert seat is not None
                episode.step(seat, int(rng.choice(np.flatnonzero(episode.mask(seat)))))
    assert windows >= 20 and len(orders) > 1


def test_the_gym_seat_plays_against_bots_and_is_paid_its_own_result() -> None:
    genv = gym_env("sedma", players=2, opponents="expert")
    total = 0.0
    for seed in range(5):
        genv.reset(seed=seed)
        done = False
        while not done:
            mask = genv.action_masks()
            _, reward, done, _, _ = genv.step(int(np.flatnonzero(mask)[0]))
            total += reward
        assert verify_text(genv.record_text()).ok
        assert reward == float(genv.episode.state.returns()[0])
    assert total != 0.0


SPIEL = ["python_capture(preset=sedma,players=2)", "python_capture(preset=hola,players=4)",
         "python_capture(preset=ristikontra,players=2)", "python_hoola(preset=pagat,players=4)",
         "python_hoola(preset=two-player,players=2)", "python_hoola(preset=online,players=5)",
         "python_kalookie(preset=british,players=4)", "python_kalookie(preset=scarne,players=2)"]


@pytest.mark.parametrize("name", SPIEL)
def test_openspiel_random_sims_serialization_and_pickling(name: str) -> None:
    import pickle

    pyspiel = pytest.importorskip("pyspiel")
    from hoola.rl.spiel import register

    register()
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)
    pyspiel.random_sim_test(pyspiel.convert_to_turn_based(game), num_sims=2, serialize=False,
                            verbose=False)
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, _ = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choice(outcomes))
        elif state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(q))
                                 for q in range(game.num_players())])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        if len(state.history()) % 17 == 0:
            _, copy_state = pyspiel.deserialize_game_and_state(
                pyspiel.serialize_game_and_state(game, state))
            assert str(copy_state) == str(state)
            assert copy_state.history() == state.history()
    assert sum(state.returns()) == pytest.approx(0.0)
    verdict = verify_text(state.record_text())
    assert verdict.ok, verdict.problems


def test_openspiel_deals_the_pack_card_by_card_and_a_window_is_simultaneous() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from hoola.rl.spiel import register

    register()
    game = pyspiel.load_game("python_hoola(preset=pagat,players=4)")
    state = game.new_initial_state()
    dealt = 0
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 52 - dealt
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        state.apply_action(outcomes[-1][0])
        dealt += 1
    assert dealt == 52
    rng = random.Random(5)
    windows = 0
    for _ in range(30):
        while not state.is_terminal() and windows < 3:
            if state.is_simultaneous_node():
                windows += 1
                legal = [state.legal_actions(q) for q in range(4)]
                assert any(len(a) == 1 for a in legal)  # a seat outside the window: the no-op
                state.apply_actions([rng.choice(a) for a in legal])
            elif state.is_chance_node():
                outcomes, _ = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choice(outcomes))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        if windows == 3:
            break
        state = game.new_initial_state()
    assert windows == 3
