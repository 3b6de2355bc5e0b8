"""``python -m cardwidgets``: the ``cardwidgets`` command (see :mod:`cardwidgets.cli`)."""

if __name__ == "__main__":
    from cardwidgets.cli import main

    raise SystemExit(main())
