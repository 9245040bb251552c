#!/bin/sh
# A misbehaving UCI engine for tests/experiments.rs. Its first move in a game is legal (e2e4 as
# White, e7e5 as Black: legal whatever the opponent's first move); its second breaks the rule
# named by $1:
#   crash    the process exits
#   illegal  it plays e2e4 again (no pawn there, or not its pawn)
#   none     bestmove 0000
#   silent   it says nothing
mode=$1
go=0
plies=0
while read -r cmd rest; do
    case "$cmd" in
        uci) echo "id name fake-$mode"; echo "option name Hash type spin default 16 min 1 max 64"; echo "uciok" ;;
        isready) echo "readyok" ;;
        ucinewgame) go=0 ;;
        position)
            # "startpos" or "startpos moves m1 m2 ...": the words after "moves" are the plies.
            set -- $rest
            if [ $# -gt 1 ]; then plies=$(($# - 2)); else plies=0; fi ;;
        go)
            go=$((go + 1))
            if [ $go -ge 2 ]; then
                case "$mode" in
                    crash) exit 3 ;;
                    illegal) echo "bestmove e2e4" ;;
                    none) echo "bestmove 0000" ;;
                    silent) ;;
                esac
            elif [ $((plies % 2)) -eq 0 ]; then
                echo "info depth 1 score cp 20 nodes 1 pv e2e4"
                echo "bestmove e2e4"
            else
                echo "bestmove e7e5"
            fi ;;
        quit) exit 0 ;;
    esac
done
