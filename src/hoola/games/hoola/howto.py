"""How to play Hoola, in a few sentences for a newcomer (``hoola rules``); the rulings are in
:mod:`hoola.games.hoola.rules` and ``shared/spec/hoola-rules.md``."""

from __future__ import annotations

from hoola.core.words import phrases

__all__ = ["HOW_TO_PLAY", "PRESET_TITLES"]

PRESET_TITLES = {
    "pagat": "Battle rules", "classic": "Without battles", "rummy-rulebook": "The Rummy Rulebook",
    "online": "Online rules", "two-player": "Two players",
    "online-missions": "Online, with missions",
    "winjoy": "Winjoy", "two-player-hoola-only": "Two players, out only by a Hoola",
    "old": "The old rules with sevens", "hertzog": "3-2-1 payments", "glenn": "Building on melds",
    "court-ten": "Court cards count ten",
}
"""Each preset's name for people (the lobby, the table's title)."""

phrases({f"preset.hoola.{name}": title for name, title in PRESET_TITLES.items()})

HOW_TO_PLAY = (
    "Hoola is a Korean rummy for 2 to 5 players (6 or 7, some dropping out of each deal), with "
    "52 cards and no jokers. The object is to get rid of your cards, or to hold few points "
    "when play ends. Each player is dealt 7 cards; the dealer plays first. On your turn draw "
    "from the stock, or take the top discard, but only to lay it down at once in a new meld of "
    "three with two of your cards (any player may claim a discard so, out of turn: the first "
    "claim wins); lay down melds (sets of three or four of a rank, runs of three or more in a "
    "suit, a seven alone); add cards to melds on the table once you have laid one of your own; "
    "then discard. Play ends when someone melds their last card (going out; all in one turn is "
    "a Hoola, paid four times), knocks at the start of a turn with few points (the fewest "
    "points win: a knocker who does not hold them is undercut), shows four sevens or a blast "
    "hand; the losers pay by their rank. Hoola has no end of its own: a match is as many deals "
    "as the table plays, with the running score."
)
"""What Hoola is, a turn, and how a deal and a match end (preset pagat)."""
