# bash completion for pulsebar, generated from its option table in
# Sources/PulseBarDaemon/CommandLine: do not edit; change the table, run `make generated`.
_pulsebar() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    # --opt=VALUE: bash splits the word at '=' (COMP_WORDBREAKS).
    if [[ $cur == = ]]; then
        cur=
    elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then
        prev=${COMP_WORDS[COMP_CWORD-2]}
    fi
    local command=run
    case ${COMP_WORDS[1]} in
        run|listen|overlay|check-config|bands|ctl|status|help) ((COMP_CWORD > 1)) && command=${COMP_WORDS[1]} ;;
    esac
    if ((COMP_CWORD == 1)) && [[ $cur != -* ]]; then
        COMPREPLY=($(compgen -W "run listen overlay check-config bands ctl status help" -- "$cur"))
        return
    fi
    case $command:$prev in
        run:--config) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")); return ;;
        run:--format) COMPREPLY=($(compgen -W "text waybar json raw" -- "$cur")); return ;;
        run:--bars) return ;;
        run:--fps) return ;;
        run:--channels) COMPREPLY=($(compgen -W "mono stereo" -- "$cur")); return ;;
        run:--input) COMPREPLY=($(compgen -W "auto pulse pulse: pipewire file: fifo: stdin" -- "$cur")); return ;;
        run:--socket) [[ $cur == -* ]] || { compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")); return; } ;;
        run:--seed) return ;;
        listen:--socket) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")); return ;;
        listen:--format) COMPREPLY=($(compgen -W "text waybar json raw" -- "$cur")); return ;;
        listen:--bars) return ;;
        listen:--fps) return ;;
        listen:--config) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")); return ;;
        overlay:--socket) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")); return ;;
        overlay:--port) return ;;
        overlay:--listen) return ;;
        bands:--bars) return ;;
        bands:--low) return ;;
        bands:--high) return ;;
        bands:--channels) COMPREPLY=($(compgen -W "mono stereo" -- "$cur")); return ;;
        bands:--rate) return ;;
        bands:--config) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")); return ;;
        ctl:--player) return ;;
        status:--socket) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")); return ;;
    esac
    local options
    case $command in
        help)
            ((COMP_CWORD == 2)) && COMPREPLY=($(compgen -W "run listen overlay check-config bands ctl status" -- "$cur"))
            return ;;
        check-config)
            if [[ $cur != -* ]]; then
                compopt -o filenames 2>/dev/null
                COMPREPLY=($(compgen -f -- "$cur"))
                return
            fi ;;
        ctl) ((COMP_CWORD == 2)) && [[ $cur != -* ]] && { COMPREPLY=($(compgen -W "play-pause play pause next previous volume seek position" -- "$cur")); return; } ;;

    esac
    case $command in
        run) options="--config --format --bars --fps --channels --input --offline --socket --no-stdout --foreground --seed -v --verbose -h --help" ;;
        listen) options="--socket --format --bars --fps --config -h --help" ;;
        overlay) options="--socket --port --listen -h --help" ;;
        check-config) options="-h --help" ;;
        bands) options="--bars --low --high --channels --rate --config -h --help" ;;
        ctl) options="--player -h --help" ;;
        status) options="--json --socket -h --help" ;;
    esac
    # --version only as the first word.
    ((COMP_CWORD == 1)) && options+=" -V --version"
    COMPREPLY=($(compgen -W "$options" -- "$cur"))
}
complete -F _pulsebar pulsebar
