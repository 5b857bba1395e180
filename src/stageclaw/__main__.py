from stageclaw.cli import main

main()
