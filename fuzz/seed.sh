#!/usr/bin/env bash
# Fills fuzz/corpus/<target>/ with seed inputs: the repository's data (tests/data, book/, engines/)
# and records that `hisha convert` writes in every format from tests/data/records, book/lines.psn,
# a GUI-dialect PSN with variations and two short self-play games (`hisha match`: times, engine
# data, results). The corpora are not committed (.gitignore); run this before the first fuzz run.
#
#   fuzz/seed.sh [HISHA]     HISHA: the binary to use (default: target/debug/hisha, built if missing)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
hisha=${1:-$root/target/debug/hisha}
if [ ! -x "$hisha" ]; then
    (cd "$root" && cargo build --quiet)
fi
corpus=$root/fuzz/corpus
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# put TARGET < content: one seed file, named by its content.
put() {
    mkdir -p "$corpus/$1"
    cat > "$work/seed"
    local name
    name=$(sha1sum "$work/seed" | cut -c1-16)
    mv "$work/seed" "$corpus/$1/seed-$name"
}

# --- SFEN: every position of the perft and tsume suites, the book, and the handicap starts.
{
    sed -n 's/^sfen //p' "$root/tests/data/perft.txt"
    grep -v '^#' "$root/tests/data/tsume.txt" | awk 'NF >= 4 { print $1, $2, $3, $4 }'
    sed -n 's/^sfen //p' "$root/book/standard.db" | head -40
    "$hisha" handicaps | awk -F'\t' '{ print $NF }'
    echo "startpos"
    echo "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL B - "
} | sort -u | while IFS= read -r line; do printf '%s' "$line" | put sfen; done

# --- Records: sources in PSN, each game converted to every format.
cp "$root"/tests/data/records/*.psn "$work/"
# Plies 1-102 of the Davis sample are legal (psn.md §4): that part converts to every format.
sed -e 's/103\.S3h-4i//' -e 's/104\.B8ex5h+//' "$root/tests/data/records/davis_sample.psn" > "$work/davis_legal.psn"
cp "$root/book/lines.psn" "$work/lines.psn"
cat > "$work/variations.psn" <<'EOF'
[Sente "Alice"]
[Gote "Bob"]
[SFEN "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"]
1.P7g-7f          (00:03 / 00:00:03)
2.P3c-3d          (00:02 / 00:00:02)
{a comment
on two lines}
3.B8hx2b+         (00:05 / 00:00:08)
4.S3ax2b          (00:04 / 00:00:06)
5.B*4e            (00:10 / 00:00:18)
6.Resigns         (00:07 / 00:00:13)

Variation:2
2.P8c-8d          (00:01 / 00:00:01)
3.P2g-2f          (00:01 / 00:00:04)

Variation:3
3.P2g-2f          (00:02 / 00:00:05)
EOF
if "$hisha" match --games 2 --tc st=20 --max-plies 40 --seed 1 --quiet --out "$work/selfplay.psn" \
    >/dev/null 2>&1; then
    :
else
    echo "seed.sh: hisha match failed; going on without self-play games" >&2
fi
for src in "$work"/*.psn; do
    # One file per game: a header line after a game's body starts the next game.
    awk -v out="$work/game-$(basename "$src" .psn)" '
        /^\[/ && body { n++; body = 0 }
        !/^\[/ && NF && !/^\{/ { body = 1 }
        { print > (out "-" n+0 ".psn") }' "$src"
done
for game in "$work"/game-*.psn; do
    put psn < "$game"
    for to in psn psn2 kif kifu ki2 csa usi; do
        out="$work/out.$to"
        rm -f "$out"
        if "$hisha" convert --to "$to" -o "$out" "$game" >/dev/null 2>&1 && [ -s "$out" ]; then
            case $to in
                psn | psn2) target=$to ;;
                kif | kifu) target=kif ;;
                usi) target=usi_line ;;
                *) target=$to ;;
            esac
            put "$target" < "$out"
            put detect < "$out"
        fi
    done
done
for to in psn csa usi; do
    "$hisha" convert --to "$to" -o "$work/all.$to" "$work"/lines.psn >/dev/null 2>&1 && put detect < "$work/all.$to"
done

# --- USI commands (GUI -> engine), including the position lines of the USI-line records.
{
    printf '%s\n' usi isready usinewgame stop ponderhit quit debug gameover "gameover win" "gameover lose" \
        "setoption name USI_Hash value 256" "setoption name Skill Level value 20" "setoption name ClearHash" \
        "go btime 600000 wtime 600000 byoyomi 10000" "go ponder btime 1000 wtime 2000 binc 500 winc 500" \
        "go infinite" "go mate 60000" "go mate infinite" "go nodes 10000" "go depth 7" "go movetime 500" \
        "go movestogo 40 searchmoves 7g7f 2g2f" "position startpos" "position startpos moves 7g7f 3c3d"
    cat "$corpus"/usi_line/* 2>/dev/null | grep -E '^(startpos|sfen)' | head -20 | sed 's/^/position /'
} | while IFS= read -r line; do printf '%s' "$line" | put usi_command; done

# --- Engine replies (engine -> GUI): hisha's own, and the forms other engines use.
{
    (printf 'usi\nisready\nposition startpos\ngo depth 3\n'; sleep 3; printf 'go mate 1000\n'; sleep 2; echo quit) \
        | "$hisha" 2>/dev/null || true
    printf '%s\n' "bestmove 7g7f ponder 3c3d" "bestmove resign" "bestmove win" "checkmate nomate" \
        "checkmate timeout" "checkmate notimplemented" "checkmate 2b2a+ 1a2a G*3b" \
        "info depth 3 score mate -4 upperbound nodes 10 time 1 pv 1a1b" "info nodes 5 score mate + pv 1a1b" \
        "info score mate 3 depth 9 time 4" "option name Use NNUE type check default true" \
        "Fairy-Stockfish 14 by Fabian Fichter" "Unknown command: usinewgame"
} | sort -u | while IFS= read -r line; do printf '%s' "$line" | put usi_response; done

# --- Books: the shipped book, its first positions alone, and a hand-made one with every field.
put book < "$root/book/standard.db"
head -30 "$root/book/standard.db" | put book
printf '#YANEURAOU-DB2016 1.00\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7f 3c3d 10 16 5\n2g2f none -20 16 3\nsfen lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3\n2g2f 8c8d 0 12 1\n8h2b+ none -2147483648 0 9223372036854775807\n' \
    | put book

# --- Engine definitions.
for f in "$root"/engines/*; do put engine_toml < "$f"; done

# --- Time controls: the README's, every form the parser documents, an engine file's.
{
    grep -oE '(byoyomi|time|inc|st|nodes|depth|movetime)=[0-9]+(,(byoyomi|inc)=[0-9]+)?' "$root/README.md"
    printf '%s\n' byoyomi=1000 time=60000,byoyomi=1000 time=60000,inc=1000 time=300000 st=500 movetime=500 \
        nodes=10000 depth=6 "time=0, inc=5"
    sed -n 's/^tc *= *"\(.*\)"/\1/p' "$root"/engines/*.toml
} | sort -u | while IFS= read -r line; do printf '%s' "$line" | put tc; done

# --- Match state files: the self-play match above, a match at a node budget with a time
# control per engine, and a hand-made one with every result word and reason.
[ -s "$work/selfplay.psn.state" ] && put match_state < "$work/selfplay.psn.state"
if "$hisha" match --games 2 --tc nodes=1000 --max-plies 30 --seed 2 --quiet --out "$work/nodes.psn" \
    >/dev/null 2>&1; then
    put match_state < "$work/nodes.psn.state"
else
    echo "seed.sh: hisha match --tc nodes=1000 failed; going on without its state file" >&2
fi
{
    printf '# hisha match state v1\tout=g.psn\tformat=psn\tfirst=my engine\tsecond=hisha\tengine1=/bin/engine --fast\tengine2=/usr/bin/hisha option.USI_Hash=16\ttc1=time=60000,inc=1000\ttc2=depth=6\topenings=built-in book/openings.psn, 24 plies, seed 3 #0123456789abcdef\n'
    n=0
    for winner in black white draw unfinished; do
        for reason in resign checkmate time repetition perpetual-check declaration max-moves illegal-move \
            adjudication disconnect interrupt; do
            n=$((n + 1))
            printf 'game\t%d\tmy engine\thisha\t%s\t%s\n' "$n" "$winner" "$reason"
        done
    done
} | put match_state
printf '# hisha match state v1\tout=old.psn\tformat=kif\tfirst=a\tsecond=b\n\ngame\t1\ta\tb\tblack\tresign\r\n' | put match_state

# --- Openings: one byte picks the file name and the plies (fuzz_targets/openings.rs: name
# index + 9 * plies; names: .sfen .txt .psn .psn2 .kif .ki2 .csa .usi, none), then the file.
opening() { { printf "\\$(printf '%03o' $(($1 + 9 * $2)))"; cat; } | put openings; }
opening 2 8 < "$root/book/openings.psn"
head -60 "$root/book/openings.psn" | opening 2 3
opening 2 11 < "$root/book/lines.psn"
sed -n 's/^sfen //p' "$root/tests/data/perft.txt" | opening 0 0
sed -n 's/^sfen //p' "$root/tests/data/perft.txt" | head -3 | opening 1 0
start="lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
printf '%s moves 7g7f 3c3d\n  # comment\n%s moves 2g2f\r%s\n' "$start" "$start" "$start" | opening 0 4
printf 'startpos moves 7g7f 3c3d 2g2f\n# comment\nstartpos moves 2g2f 8c8d\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 5g5f\n' | opening 1 2
for f in "$corpus"/usi_line/*; do opening 7 5 < "$f"; done 2>/dev/null
for f in "$corpus"/csa/* "$corpus"/kif/* "$corpus"/ki2/* "$corpus"/psn2/*; do
    case $f in */csa/*) i=6 ;; */kif/*) i=4 ;; */ki2/*) i=5 ;; *) i=3 ;; esac
    opening "$i" 4 < "$f"
done 2>/dev/null

# --- PackedSfenValue records (40 bytes each): self-play records written by the NNUE pipeline's
# `gen` (hisha-nnue, tools/nnue), and the handicap starts and the perft positions through its `convert-tsv`
# (pieces in the box, pieces in hand).
if (cd "$root" && cargo build --quiet -p hisha-nnue) 2>/dev/null; then
    nnue=$root/target/debug/hisha-nnue
    "$nnue" gen --out "$work/gen.psv" --positions 24 --nodes 200 --threads 1 --evalfile linear --seed 3 \
        --report 3600 >/dev/null 2>&1 || true
    {
        "$hisha" handicaps | awk -F'\t' '{ print $NF "\t0\t0" }'
        sed -n 's/^sfen //p' "$root/tests/data/perft.txt" | awk '{ print $0 "\t-120\t1" }'
    } > "$work/positions.tsv"
    "$nnue" convert-tsv "$work/positions.tsv" "$work/tsv.psv" >/dev/null 2>&1 || true
    for psv in "$work/gen.psv" "$work/tsv.psv"; do
        [ -s "$psv" ] || continue
        split -b 40 -a 4 "$psv" "$work/record-"
        for r in "$work"/record-*; do put packed_sfen < "$r"; rm "$r"; done
    done
else
    echo "seed.sh: hisha-nnue does not build; going on without PackedSfenValue records" >&2
fi

# --- NNUE nets: one byte 0x00-0x3f then a file (the first 4 KiB of the shipped net, inflated,
# and of a random net of each feature set: real headers, then truncated), or one byte 0x40 + t
# then edits of template t (fuzz_targets/nnue.rs): each template unedited, and with its first
# bytes changed.
if python3 -c 'import sys, zlib; sys.stdout.buffer.write(zlib.decompress(open(sys.argv[1], "rb").read()))' \
    "$root/nnue/nn.bin.zlib" > "$work/shipped.bin" 2>/dev/null; then
    { printf '\000'; head -c 4096 "$work/shipped.bin"; } | put nnue
else
    echo "seed.sh: python3 cannot inflate nnue/nn.bin.zlib; going on without it" >&2
fi
for features in kp halfkp; do
    "$hisha" nnue random --features "$features" "$work/$features.bin" >/dev/null 2>&1 \
        && { printf '\001'; head -c 4096 "$work/$features.bin"; } | put nnue
done
printf '\002\026\057\363\172' | put nnue
for t in 0 1 2 3 4; do
    printf "\\$(printf '%03o' $((0x40 + t)))\\000\\377" | put nnue
    printf "\\$(printf '%03o' $((0x40 + t)))\\374\\377\\004\\000\\000\\377\\020\\000\\000\\000" | put nnue
    printf "\\$(printf '%03o' $((0x40 + t)))\\000\\005short" | put nnue
done

for d in "$corpus"/*/; do
    printf '%-14s %4d seeds\n' "$(basename "$d")" "$(find "$d" -type f | wc -l)"
done
