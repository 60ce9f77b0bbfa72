"""The winner each Python reader takes from hisha's records: cshogi's and python-shogi's (PyPI).

  record_winners.py cshogi|python-shogi <file>...

prints `<file> <winner>` per file, the winner being black, white, draw, none (no result) or
nowinner (python-shogi's `-`, which is a draw or no result), as the reader's own `win` says, or
`error:<exception>` where the reader fails.
`.kif`/`.ki2` are Shift_JIS, `.kifu`/`.ki2u` UTF-8, `.csa` UTF-8 (hisha writes CSA V3.0).
python-shogi has no KI2 reader.
"""
import sys


def text(path):
    encoding = 'cp932' if path.endswith(('.kif', '.ki2')) else 'utf-8'
    with open(path, encoding=encoding) as f:
        return f.read()


def cshogi_winner(path):
    import cshogi
    import cshogi.CSA
    import cshogi.KI2
    import cshogi.KIF
    if path.endswith('.csa'):
        win = cshogi.CSA.Parser.parse_str(text(path))[0].win
    elif path.endswith(('.ki2', '.ki2u')):
        win = cshogi.KI2.Parser.parse_str(text(path)).win
    else:
        win = cshogi.KIF.Parser.parse_str(text(path)).win
    return {cshogi.BLACK_WIN: 'black', cshogi.WHITE_WIN: 'white', cshogi.DRAW: 'draw', None: 'none'}[win]


def python_shogi_winner(path):
    import shogi.CSA
    import shogi.KIF
    parser = shogi.CSA.Parser if path.endswith('.csa') else shogi.KIF.Parser
    win = parser.parse_str(text(path))[0]['win']
    return {'b': 'black', 'w': 'white', '-': 'nowinner', None: 'none'}[win]


def main():
    reader = {'cshogi': cshogi_winner, 'python-shogi': python_shogi_winner}[sys.argv[1]]
    for path in sys.argv[2:]:
        try:
            print(path, reader(path))
        except Exception as e:  # a file the reader fails on is reported, and the others read
            print(path, 'error:' + type(e).__name__)


main()
