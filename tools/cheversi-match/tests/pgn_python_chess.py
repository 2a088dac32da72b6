"""What python-chess makes of a cheversi-match PGN: the Variant tag must be
one it does not know, so no game is read as chess. Usage: pgn_python_chess.py FILE"""
import sys

import chess.pgn

games = 0
with open(sys.argv[1], encoding="utf-8") as f:
    while (game := chess.pgn.read_game(f)) is not None:
        games += 1
        try:
            board = game.headers.variant()
            sys.exit(f"game {games}: python-chess reads it as {board.__name__} ({game.headers['Variant']})")
        except ValueError as e:
            assert "unsupported variant" in str(e), e
        assert game.errors and "unsupported variant" in str(game.errors[0]), game.errors
        assert not list(game.mainline_moves()), "moves read as chess"
print(f"{games} games: python-chess reports an unsupported variant for each, reads no move as chess")
