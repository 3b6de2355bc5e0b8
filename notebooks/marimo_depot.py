import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell
def _():
    import marimo as mo

    from cardwidgets import Depot

    return Depot, mo


@app.cell(hide_code=True)
def _(mo):
    mo.md("""
    # Depot in marimo

    You are seat A against two bots: select cards in your hand and press Play, or pass.
    The table is a live anywidget: `mo.ui.anywidget(table)` shows it in a cell.
    """)
    return


@app.cell
def _(Depot, mo):
    depot = Depot(players=3, seed=7, seat=0, bots="greedy", bot_delay=0.5)
    table = mo.ui.anywidget(depot)
    table
    return depot, table


@app.cell(hide_code=True)
def _(mo):
    mo.md("""
    marimo reruns a cell when a value the page sets changes, and a table sets none (the page
    only sends messages). To read the game, ask the table in a cell you run again, for instance
    with a button:
    """)
    return


@app.cell
def _(mo):
    refresh = mo.ui.button(label="Read the game")
    refresh
    return (refresh,)


@app.cell
def _(depot, refresh):
    refresh
    depot.history_len, depot.narration[-3:]
    return


if __name__ == "__main__":
    app.run()
