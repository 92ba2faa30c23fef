"""How to play Kalookie, in a few sentences for a newcomer (``hoola rules kalookie``); the rulings
are in :mod:`hoola.games.kalookie.rules` and ``shared/spec/kalookie-rules.md``."""

from __future__ import annotations

from hoola.core.words import phrases

__all__ = ["HOW_TO_PLAY", "PRESET_TITLES"]

PRESET_TITLES = {
    "british": "British club rules", "williamson": "Williamson's stakes",
    "swedish": "Swedish Kalooki", "blackpool": "Blackpool rules", "three-deck": "Three packs",
    "north-american": "North American Kaluki", "scarne": "Scarne's Kaluki",
}
"""Each preset's name for people (the lobby, the table's title)."""

phrases({f"preset.kalookie.{name}": title for name, title in PRESET_TITLES.items()})

HOW_TO_PLAY = (
    "Kalookie is a rummy for 2 to 6 players with two packs and two jokers (106 cards). The "
    "object is to meld all your cards and call up, and not to be caught holding penalty "
    "points. Each player is dealt 13 cards. On your turn draw from the stock or take the top "
    "discard, lay down melds (sets of three or four of a rank in different suits, runs of "
    "three or more in a suit; jokers stand for any card), build on anyone's melds, then "
    "discard. Your first melds in a hand must be worth 40 points or more together (the initial "
    "meld), and you may take the discard before it only to make it. A hand ends when a player "
    "melds every card but the one they discard (calling up; all at once is a kalookie, paid "
    "double): the others keep the points left in their hands as penalty points. In the pool "
    "game everyone stakes into a pool; a player whose penalty total passes the target (150) is "
    "out, or may buy back in, and the game ends when one player is left, who takes the pool."
)
"""What Kalookie is, a turn, and how a hand and the game end (preset british)."""
