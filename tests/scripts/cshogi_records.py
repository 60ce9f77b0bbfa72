"""Cross-checks hisha's KIF and CSA with cshogi (PyPI), an independent implementation.

  read <file>...            parse each file with cshogi; print one JSON line per game
  write <dir> <seed> <n>    write n random legal games with cshogi's exporters (KIF and CSA);
                            print one JSON line per game with the files and the moves
"""
import json, os, random, sys

import cshogi
import cshogi.CSA
import cshogi.KIF


def game_json(sfen, moves, names, **extra):
    return json.dumps(dict(sfen=sfen, moves=[cshogi.move_to_usi(m) for m in moves], names=list(names), **extra), ensure_ascii=False)


def read(paths):
    for path in paths:
        if path.endswith('.csa'):
            for p in cshogi.CSA.Parser.parse_file(path):
                print(game_json(p.sfen, p.moves, p.names, endgame=p.endgame))
        else:
            p = cshogi.KIF.Parser.parse_file(path)
            print(game_json(p.sfen, p.moves, p.names, endgame=p.endgame))


def write(directory, seed, n):
    rng = random.Random(seed)
    for i in range(n):
        board = cshogi.Board()
        moves = []
        for _ in range(rng.randint(20, 90)):
            legal = list(board.legal_moves)
            if not legal:
                break
            m = rng.choice(legal)
            moves.append(m)
            board.push(m)
        base = os.path.join(directory, 'game%03d' % i)
        kif = cshogi.KIF.Exporter(base + '.kif')
        kif.header(['black %d' % i, 'white %d' % i])
        b = cshogi.Board()
        for m in moves:
            kif.move(m, 1, 1)
            b.push(m)
        kif.end('resign', 1, 1)
        kif.close()
        csa = cshogi.CSA.Exporter(base + '.csa')
        csa.info(cshogi.Board(), ['black %d' % i, 'white %d' % i])
        for m in moves:
            csa.move(m, time=2)
        csa.endgame('%TORYO')
        csa.close()
        print(game_json(cshogi.STARTING_SFEN, moves, ['black %d' % i, 'white %d' % i], kif=base + '.kif', csa=base + '.csa'))


if __name__ == '__main__':
    if sys.argv[1] == 'read':
        read(sys.argv[2:])
    else:
        write(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
