// The winner tsshogi (npm; the record library inside ShogiHome) takes from hisha's records.
//
//   node tsshogi_winners.cjs <file>...
//
// prints `version <tsshogi version>`, then `<file> <winner>` per file: black, white, draw or none
// (no result), from the special move that ends the main line and the side to move there, as
// tsshogi's own comments define them (src/move.ts: FOUL_WIN "手番側の勝ち", FOUL_LOSE "手番側の
// 負け"; RESIGN, MATE and TIMEOUT end the side to move's game, ENTERING_OF_KING and
// WIN_BY_DEFAULT win it). `.kif`/`.ki2` are Shift_JIS, the others UTF-8. tsshogi is found the
// way `require` finds it, e.g. through NODE_PATH.
"use strict";
const fs = require("fs");
const path = require("path");
const ts = require("tsshogi");

const moverLoses = ["resign", "mate", "timeout", "foulLose", "loseByDefault"];
const moverWins = ["foulWin", "enteringOfKing", "winByDefault", "try"];
const draws = ["draw", "repetitionDraw", "impass", "maxMoves"];

const pkg = path.join(path.dirname(require.resolve("tsshogi")), "..", "..", "package.json");
console.log("version", JSON.parse(fs.readFileSync(pkg, "utf-8")).version);
for (const file of process.argv.slice(2)) {
  const ext = path.extname(file);
  const sjis = ext === ".kif" || ext === ".ki2";
  const data = new TextDecoder(sjis ? "shift_jis" : "utf-8").decode(fs.readFileSync(file));
  const record = ext === ".csa" ? ts.importCSA(data) : ext.startsWith(".ki2") ? ts.importKI2(data) : ts.importKIF(data);
  if (record instanceof Error) {
    console.log(file, "error", record.message);
    continue;
  }
  const last = record.moves[record.moves.length - 1];
  const type = last.move.type;
  const mover = last.nextColor;
  const other = mover === "black" ? "white" : "black";
  let winner = "none";
  if (moverLoses.includes(type)) winner = other;
  else if (moverWins.includes(type)) winner = mover;
  else if (draws.includes(type)) winner = "draw";
  console.log(file, winner);
}
