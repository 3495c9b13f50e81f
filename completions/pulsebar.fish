# fish completion for pulsebar, generated from its option table in
# Sources/PulseBarDaemon/CommandLine: do not edit; change the table, run `make generated`.
complete -c pulsebar -f
complete -c pulsebar -n 'not __fish_seen_subcommand_from run listen check-config bands ctl status help' -a run -d 'capture and stream frames (the default command)'
complete -c pulsebar -n 'not __fish_seen_subcommand_from run listen check-config bands ctl status help' -a listen -d 'read a running daemon\'s socket and print its frames'
complete -c pulsebar -n 'not __fish_seen_subcommand_from run listen check-config bands ctl status help' -a check-config -d 'validate a config file (none at the default path: all defaults)'
complete -c pulsebar -n 'not __fish_seen_subcommand_from run listen check-config bands ctl status help' -a bands -d 'print each bar\'s lower and upper cutoff in Hz'
complete -c pulsebar -n 'not __fish_seen_subcommand_from run listen check-config bands ctl status help' -a ctl -d 'control the active MPRIS player; ACTION: play-pause, play, pause, next, previous'
complete -c pulsebar -n 'not __fish_seen_subcommand_from run listen check-config bands ctl status help' -a status -d 'ask the running daemon what it records and why, its players, clients, frame rate and CPU'
complete -c pulsebar -n 'not __fish_seen_subcommand_from run listen check-config bands ctl status help' -a help -d 'this help, or one command\'s'
complete -c pulsebar -n __fish_use_subcommand -s V -l version -d 'show the version'
# run
complete -c pulsebar -n 'not __fish_seen_subcommand_from listen check-config bands ctl status help' -l config -r -F -d 'read this config file'
complete -c pulsebar -n 'not __fish_seen_subcommand_from listen check-config bands ctl status help' -l format -x -a 'text waybar json raw' -d 'text, waybar, json or raw'
complete -c pulsebar -n 'not __fish_seen_subcommand_from listen check-config bands ctl status help' -l bars -x -d 'bars in all; in stereo half per channel'
complete -c pulsebar -n 'not __fish_seen_subcommand_from listen check-config bands ctl status help' -l fps -x -d 'frames per second'
complete -c pulsebar -n 'not __fish_seen_subcommand_from listen check-config bands ctl status help' -l channels -x -a 'mono stereo' -d 'mono downmix, or stereo: left and right'
complete -c pulsebar -n 'not __fish_seen_subcommand_from listen check-config bands ctl status help' -l input -x -a 'auto pulse pulse: pipewire file: fifo: stdin' -d 'auto (native PipeWire when it serves the audio, else libpulse), pulse, pulse:NAME, pipewire, file:PATH, fifo:PATH, stdin'
complete -c pulsebar -n 'not __fish_seen_subcommand_from listen check-config bands ctl status help' -l offline -d 'file input: as fast as possible, then exit'
complete -c pulsebar -n 'not __fish_seen_subcommand_from listen check-config bands ctl status help' -l socket -d 'serve clients on PATH or the usual socket'
complete -c pulsebar -n 'not __fish_seen_subcommand_from listen check-config bands ctl status help' -l no-stdout -d 'write no frames on stdout'
complete -c pulsebar -n 'not __fish_seen_subcommand_from listen check-config bands ctl status help' -l foreground -d 'full-screen terminal view; q quits'
complete -c pulsebar -n 'not __fish_seen_subcommand_from listen check-config bands ctl status help' -l seed -x -d 'seed of the bubbles\' randomness'
complete -c pulsebar -n 'not __fish_seen_subcommand_from listen check-config bands ctl status help' -s v -l verbose -d 'debug lines: sink switches, streams, clients, reloads'
complete -c pulsebar -n 'not __fish_seen_subcommand_from listen check-config bands ctl status help' -s h -l help -d 'show this help (a command\'s, after the command)'
# listen
complete -c pulsebar -n '__fish_seen_subcommand_from listen' -l socket -r -F -d 'the daemon\'s socket'
complete -c pulsebar -n '__fish_seen_subcommand_from listen' -l format -x -a 'text waybar json raw' -d 'text, waybar, json or raw'
complete -c pulsebar -n '__fish_seen_subcommand_from listen' -l bars -x -d 'bars to ask for'
complete -c pulsebar -n '__fish_seen_subcommand_from listen' -l fps -x -d 'lines per second at most'
complete -c pulsebar -n '__fish_seen_subcommand_from listen' -l config -r -F -d 'a client\'s config: format, bars, fps, socket'
complete -c pulsebar -n '__fish_seen_subcommand_from listen' -s h -l help -d 'show this help (a command\'s, after the command)'
# check-config
complete -c pulsebar -n '__fish_seen_subcommand_from check-config' -s h -l help -d 'show this help (a command\'s, after the command)'
complete -c pulsebar -n '__fish_seen_subcommand_from check-config' -F
# bands
complete -c pulsebar -n '__fish_seen_subcommand_from bands' -l bars -x -d 'bars in all; in stereo half per channel'
complete -c pulsebar -n '__fish_seen_subcommand_from bands' -l low -x -d 'lowest frequency shown'
complete -c pulsebar -n '__fish_seen_subcommand_from bands' -l high -x -d 'highest frequency shown'
complete -c pulsebar -n '__fish_seen_subcommand_from bands' -l channels -x -a 'mono stereo' -d 'mono, or stereo: the bands twice'
complete -c pulsebar -n '__fish_seen_subcommand_from bands' -l rate -x -d 'sample rate to lay the bands out for'
complete -c pulsebar -n '__fish_seen_subcommand_from bands' -l config -r -F -d 'read this config file'
complete -c pulsebar -n '__fish_seen_subcommand_from bands' -s h -l help -d 'show this help (a command\'s, after the command)'
# ctl
complete -c pulsebar -n '__fish_seen_subcommand_from ctl' -l player -x -d 'that MPRIS player (mpv matches mpv.instance123) rather than the active one'
complete -c pulsebar -n '__fish_seen_subcommand_from ctl' -s h -l help -d 'show this help (a command\'s, after the command)'
# status
complete -c pulsebar -n '__fish_seen_subcommand_from status' -l json -d 'one json object, for scripts'
complete -c pulsebar -n '__fish_seen_subcommand_from status' -l socket -r -F -d 'the daemon\'s socket'
complete -c pulsebar -n '__fish_seen_subcommand_from status' -s h -l help -d 'show this help (a command\'s, after the command)'
# help
complete -c pulsebar -n '__fish_seen_subcommand_from help' -a 'run listen check-config bands ctl status'
