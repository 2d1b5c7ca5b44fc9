from radcc.cli import main

raise SystemExit(main())
