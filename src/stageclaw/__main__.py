import sys

try:
    from stageclaw.cli import main
except KeyboardInterrupt:  # Ctrl-C while Python is still starting: nothing has started to stop
    sys.exit(130)

main()
