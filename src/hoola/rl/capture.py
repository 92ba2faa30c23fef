"""The capture games' encoding (Hola, Sedma, Sedmice, Ristikontra and their presets).

Actions: ``play`` a card is the card's id (0-51, one id for both copies of a card in a double
pack); ``dark`` (Ristikontra's play from the stock unseen) 52; ``stop`` (the leader ends a fight)
53; each spoken signal (Sedmice) 54 on, in :data:`~hoola.games.capture.rules.SIGNALS` order; the
pass last (no capture-game moment lets a seat pass: the id is never legal, and it is there so
that every family's space ends with one).

>>> from hoola.core.registry import get_game
>>> game = get_game("capture")
>>> enc = CaptureEncoding(game, game.rules("sedma"), 2)
>>> state = game.new_deal(game.rules("sedma"), ["A", "B"], seed=1)
>>> view = state.view(0)
>>> enc.size, enc.obs_size, int(enc.mask(view).sum()) == len(view.legal)
(58, 356, True)
"""

from __future__ import annotations

from typing import Any

from hoola.core.game import Game
from hoola.games.capture.actions import Dark, Play, Say, Stop
from hoola.games.capture.rules import SIGNALS
from hoola.rl.encoding import Encoding, Floats, Layout

__all__ = ["CaptureEncoding"]

DARK, STOP, SAY = 52, 53, 54


class CaptureEncoding(Encoding):
    """A capture game at one table size (see the module and ``docs/rl.md``)."""

    def __init__(self, game: Game, rules: Any, players: int) -> None:
        super().__init__(game, rules, players)
        self.pass_id = SAY + len(SIGNALS)
        self.size = self.pass_id + 1
        sides = len(game.teams(rules, players) or [(q,) for q in range(players)])
        self.sides = sides
        p = players
        lay = self.layout = Layout()
        self.hand = lay.add("hand (count of each card)", 52)
        self.shown = lay.add("hands shown to this seat (a partner's)", 52)
        self.trick = lay.add("current trick, by relative seat (count of each card)", 52 * p)
        self.trick_dark = lay.add("cards of the trick played in the dark, by relative seat", p)
        self.captured = lay.add("cards captured, by relative side (own first)", 52 * sides)
        self.tricks = lay.add("tricks taken, by relative side (/ 10)", sides)
        self.sizes = lay.add("cards in hand, by relative seat (/ 10)", p)
        self.stock = lay.add("stock and cards set aside (/ 52)", 2)
        self.led = lay.add("rank led in the current trick", 13)
        self.leader = lay.add("leader of the trick, relative seat", p)
        self.winner = lay.add("seat winning the trick so far, relative", p)
        self.turn = lay.add("seat to play, relative", p)
        self.flags = lay.add("deciding (fight or stop), first phase, signal given, "
                             "kings played / 4", 4)
        self.dirty = lay.add("dirty and cleaned, by relative side", 2 * sides)
        self.signals = lay.add("the last signal of each relative seat", p * len(SIGNALS))
        self.standing = lay.add("match score before the hand, by relative side (/ 100), carry",
                                sides + 1)

    def action_id(self, view: Any, action: Any) -> int:
        """Play: the card; dark, stop and the signals after the pack."""
        if isinstance(action, Play):
            return action.card
        if isinstance(action, Dark):
            return DARK
        if isinstance(action, Stop):
            return STOP
        if isinstance(action, Say):
            return SAY + SIGNALS.index(action.word)
        raise ValueError(f"not a capture-game action: {action!r}")

    def fill(self, view: Any, out: Floats) -> None:
        """The view, laid out as :attr:`layout` says."""
        p, me, k = self.players, view.player, self.sides
        seat_of = [(q - me) % p for q in range(p)]  # relative seats
        side_of = [(s - view.side) % k for s in range(k)]  # relative sides
        hand = self.hand.start
        for card in view.hand:
            out[hand + card] += 1.0
        shown = self.shown.start
        for _seat, cards in view.shown:
            for card in cards:
                out[shown + card] += 1.0
        trick, dark = self.trick.start, self.trick_dark.start
        for seat, card, in_dark in view.trick:
            r = seat_of[seat]
            out[trick + 52 * r + card] += 1.0
            if in_dark:
                out[dark + r] += 1.0
        captured, tricks = self.captured.start, self.tricks.start
        for side, cards in enumerate(view.captured):
            at = captured + 52 * side_of[side]
            for card in cards:
                out[at + card] += 1.0
            out[tricks + side_of[side]] = view.tricks[side] / 10
        sizes = self.sizes.start
        for seat, n in enumerate(view.hand_sizes):
            out[sizes + seat_of[seat]] = n / 10
        out[self.stock.start] = view.stock_size / 52
        out[self.stock.start + 1] = view.leftover_size / 52
        if view.led is not None:
            out[self.led.start + view.led] = 1.0
        if view.trick:
            out[self.leader.start + seat_of[view.leader]] = 1.0
            out[self.winner.start + seat_of[view.winner]] = 1.0
        if view.turn is not None:
            out[self.turn.start + seat_of[view.turn]] = 1.0
        flags = self.flags.start
        out[flags] = float(view.deciding)
        out[flags + 1] = float(view.phase1)
        out[flags + 2] = float(view.signaled)
        out[flags + 3] = view.kings_played / 4
        dirty = self.dirty.start
        for side in range(k):
            out[dirty + 2 * side_of[side]] = float(view.dirty[side])
            out[dirty + 2 * side_of[side] + 1] = float(view.cleaned[side])
        words = len(SIGNALS)
        for seat, word in view.signals:
            at = self.signals.start + words * seat_of[seat]
            out[at:at + words] = 0.0
            out[at + SIGNALS.index(word)] = 1.0
        standing = self.standing.start
        for side, score in enumerate(view.standing):
            out[standing + side_of[side]] = score / 100
        out[self.standing.stop - 1] = view.carry / 10
