#!/usr/bin/env python3
"""Relabels training positions with the search score of another USI engine (a teacher).

    python3 examples/label_with_engine.py IN.tsv OUT.tsv [--engine /usr/games/fairy-stockfish]
        [--nodes 5000] [--shard I --shards N] [--option NAME=VALUE ...]

IN is what `cargo run --release -p hisha-nnue -- export-tsv` writes: SFEN <TAB> score <TAB>
result, one position per line, the positions of a game together. OUT gets the same lines with
the score replaced by the teacher's (centipawns for the side to move; a mate in n becomes
+-(30000 - n)). The teacher's units need not be ours: examples/tune_eval.rs rescales the score
column by the factor that makes it predict the game results best.

Run several shards in parallel (one per core, each with its own OUT) and pass all the OUT files
to the tuner; a shard keeps the order of IN, so the tuner's held-out tail still holds whole games.
OUT is appended to, so an interrupted run goes on where it stopped when started again with the
same arguments. Fairy-Stockfish gets `Contempt 0` so that its scores are symmetric.
"""
import argparse
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--engine", default="/usr/games/fairy-stockfish")
    ap.add_argument("--nodes", type=int, default=5000)
    ap.add_argument("--shard", type=int, default=0)
    ap.add_argument("--shards", type=int, default=1)
    ap.add_argument("--option", action="append", default=[], help="USI option NAME=VALUE")
    args = ap.parse_args()

    engine = subprocess.Popen([args.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def read():
        line = engine.stdout.readline()
        if not line:
            sys.exit(f"{args.engine} exited")
        return line

    def wait_for(token):
        while not read().startswith(token):
            pass

    send("usi")
    names = []
    while True:
        line = read()
        if line.startswith("option name "):
            names.append(line[len("option name "):].split(" type ")[0])
        if line.startswith("usiok"):
            break
    options = {"Threads": "1", "USI_Hash": "16", "Hash": "16", "Contempt": "0"}
    options.update(o.split("=", 1) for o in args.option)
    for name, value in options.items():
        if name in names:
            send(f"setoption name {name} value {value}")
    send("isready")
    wait_for("readyok")
    send("usinewgame")

    try:
        with open(args.output) as f:
            already = sum(1 for _ in f)
    except FileNotFoundError:
        already = 0
    mine = 0
    with open(args.input) as fin, open(args.output, "a") as fout:
        for n, line in enumerate(fin):
            if n % args.shards != args.shard:
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) < 3:
                continue
            mine += 1
            if mine <= already:
                continue
            sfen, result = fields[0], fields[2]
            send(f"position sfen {sfen}")
            send(f"go nodes {args.nodes}")
            score = None
            while True:
                line = read()
                words = line.split()
                if words[:1] == ["info"] and "score" in words:
                    i = words.index("score")
                    kind, value = words[i + 1], int(words[i + 2])
                    if kind == "cp":
                        score = value
                    elif kind == "mate":
                        score = 30000 - abs(value) if value > 0 or words[i + 2] == "+0" else -(30000 - abs(value))
                elif words[:1] == ["bestmove"]:
                    break
            if score is not None:
                fout.write(f"{sfen}\t{score}\t{result}\n")
    send("quit")


if __name__ == "__main__":
    main()
