from mtgr.cli.main import main

raise SystemExit(main())
