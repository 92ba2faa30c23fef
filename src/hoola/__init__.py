"""hoola: rules engines, bots and front ends for Hoola, Kalookie and the capture games.

The package is layered: :mod:`hoola.core` (the game interface, the registry, errors, card
notation, the record frame), one package per game family under :mod:`hoola.games`, and the front
ends (bots, simulation, terminal, command line) that reach games only through the core.

>>> from hoola.core import game_names
>>> game_names()
['hoola', 'capture', 'kalookie']
"""

__version__ = "0.1.0"
