"""mtgr: editor tooling for .mtgr records of Magic: The Gathering games."""
