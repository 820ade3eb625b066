"""The ``cardspec`` command (click).

Exit codes (DESIGN.md): 0 ok, 1 a check failed (validate, expect), 2 bad input
(missing file, syntax, illegal action). No Python traceback reaches a user: an
unexpected error (a bug in cardspec) prints ``error: [internal/error] …`` with a
bug-report hint and exits 2 (set CARDSPEC_DEBUG=1 for the traceback).
"""
from __future__ import annotations

import json
import math
import os
import sys

import click

from . import __version__
from .errors import CardspecError, Problem, RulesetError, ScenarioError, internal_error_text


def _options(pairs, ruleset=None) -> dict:
    """``--option NAME=VALUE`` pairs as a dict; with ``ruleset`` (a name or file), each is checked
    against its declared options and a bad one is reported as a command-line error (exit 2), naming
    the option and every option the ruleset declares (``OptionError``), not against the ruleset file."""
    out = {}
    origins = {}
    for p in pairs:
        if "=" not in p:
            raise click.BadParameter(f"'{p}' is not NAME=VALUE", param_hint="--option")
        k, v = p.split("=", 1)
        out[k.strip()] = v.strip()
        origins[k.strip()] = f"command line (--option {p})"
    if ruleset is not None and out:
        from .rules import read_ruleset
        try:
            rs = read_ruleset(str(ruleset))
        except RulesetError:
            return out   # the ruleset itself is reported where it is used
        rs.option_values(out, origins)
    return out


def _game(ruleset, players, options):
    """``Game(ruleset, players, options)``; a player count the ruleset does not allow is a command-line
    error (``command line (--players N): error: …``, exit 2), not a problem in the ruleset file."""
    from .engine import Game
    try:
        return Game(ruleset, players, options)
    except RulesetError as e:
        if getattr(e, "code", None) != "players/out_of_range" or players is None:
            raise
        raise RulesetError(Problem(f"command line (--players {players})", 0, 0, e.first.message,
                                   code="players/out_of_range")) from None


def _scenario_file(path):
    """Raise ``ScenarioError`` (``error: no scenario file 'PATH'``, exit 2) unless ``path`` is a file."""
    if not os.path.isfile(path):
        raise ScenarioError(f"no scenario file '{path}'")


def _origins(pairs) -> dict:
    """``--option`` name → where it was given, for options checked later (scenario rulesets)."""
    return {p.split("=", 1)[0].strip(): f"command line (--option {p})" for p in pairs if "=" in p}


option_opt = click.option("--option", "-o", "option", multiple=True, metavar="NAME=VALUE",
                          help="Set a ruleset option (repeatable), e.g. --option widow_8p=8.")


class _QuietPipe:
    """Standard output that, once its reader has gone (``cardspec validate … | head -1``), drops
    further output instead of raising ``BrokenPipeError``, so the command runs on and exits with
    the status it would have had. Everything else is the wrapped stream's."""

    def __init__(self, stream):
        self._stream = stream
        self.broken = False

    def _gone(self):
        self.broken = True
        try:   # later writes (and the interpreter's final flush) go nowhere instead of failing
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self._stream.fileno())
            os.close(devnull)
        except (OSError, ValueError, AttributeError):
            pass

    def write(self, text):
        if self.broken:
            return len(text)
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            self._gone()
            return len(text)

    def flush(self):
        if self.broken:
            return
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._gone()

    def __getattr__(self, name):
        return getattr(self._stream, name)


def _message(e: CardspecError) -> str:
    """The error's text with one ``error:`` prefix (a scenario problem already reads ``file:l:c: error: …``)."""
    text = str(e)
    first = text.split("\n", 1)[0]
    return text if first.startswith("error:") or ": error: " in first else f"error: {text}"


class _Group(click.Group):
    def invoke(self, ctx):
        if sys.stdout is sys.__stdout__ and sys.stdout is not None:
            sys.stdout = _QuietPipe(sys.stdout)
        try:
            return super().invoke(ctx)
        except RulesetError as e:   # already "file:line:col: error: …" with the line and a hint
            click.echo(str(e), err=True)
            sys.exit(2)
        except CardspecError as e:
            click.echo(_message(e), err=True)
            sys.exit(2)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException, SystemExit):
            raise
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(130)
        except BrokenPipeError:   # a write that bypassed _QuietPipe: its status is unknown
            try:
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, sys.__stdout__.fileno())
            except (OSError, ValueError, AttributeError):
                pass
            sys.exit(141)   # as a shell reports a command ended by SIGPIPE
        except Exception as e:  # noqa: BLE001 - the last line of defence against tracebacks
            if os.environ.get("CARDSPEC_DEBUG"):
                raise
            click.echo(internal_error_text(e), err=True)
            sys.exit(2)


@click.group(cls=_Group)
@click.version_option(__version__, prog_name="cardspec")
def main():
    """cardspec: card games written as data, run by one generic interpreter."""


@main.command("info")
@click.argument("ruleset")
def info(ruleset):
    """One ruleset in one screen: players, options (type, range, default, help), the steps of a deal."""
    from .rules import read_ruleset
    from .rules.loader import _describe
    from .authoring.explain import step_kind
    rs = read_ruleset(ruleset)
    lo, hi = rs.players
    click.echo(f"{rs.name}: {rs.title}, {lo}" + (f"-{hi}" if hi != lo else "") + " players")
    if rs.data.get("description"):
        import textwrap
        click.echo(textwrap.fill(" ".join(str(rs.data["description"]).split()), 100, initial_indent="  ",
                                 subsequent_indent="  "))
    if len(rs.chain) > 1:
        click.echo(f"  extends: {' <- '.join(reversed(rs.chain[:-1]))}")
    if rs.options:
        click.echo("options (--option NAME=VALUE):")
        for k, spec in rs.options.items():
            what = _describe(spec)
            if spec.get("values") is None and (spec.get("min") is not None or spec.get("max") is not None):
                what += f" {spec.get('min', '…')} to {spec.get('max', '…')}"
            click.echo(f"  {k} = {_plain_value(spec.get('default'))}  ({what})")
            if spec.get("help"):
                import textwrap
                click.echo(textwrap.fill(" ".join(str(spec["help"]).split()), 100, initial_indent="      ",
                                         subsequent_indent="      "))
    else:
        click.echo("options: none")
    steps = [f"{s.get('id') + ': ' if isinstance(s, dict) and s.get('id') else ''}{step_kind(s)}"
             for s in rs.data.get("deal") or []]
    click.echo("a deal: " + " -> ".join(steps))
    click.echo(f"more: cardspec explain {ruleset}")


@main.command("list")
@click.argument("ruleset", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.pass_context
def list_cmd(ctx, ruleset, as_json):
    """The built-in rulesets: name, title, players, options (with RULESET: that one, as `info` shows it)."""
    if ruleset:
        ctx.invoke(info, ruleset=ruleset)
        return
    from .rules import builtin_names, read_ruleset
    rows = []
    for name in builtin_names():
        rs = read_ruleset(name)
        lo, hi = rs.players
        rows.append({"name": rs.name, "title": rs.title, "players": {"min": lo, "max": hi,
                                                                      "default": rs.default_players},
                     "options": {k: v.get("default") for k, v in rs.options.items()},
                     "extends": (rs.chain[-2] if len(rs.chain) > 1 else None) and
                     os.path.splitext(os.path.basename(rs.chain[-2]))[0]})
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    for r in rows:
        p = r["players"]
        players = f"{p['min']}" if p["min"] == p["max"] else f"{p['min']}-{p['max']}"
        click.echo(f"{r['name']:34} {players:>5} players  {r['title']}")
        if r["options"]:
            import textwrap
            click.echo(textwrap.fill(", ".join(f"{k}={_plain_value(v)}" for k, v in r["options"].items()),
                                     width=100, initial_indent="    options: ", subsequent_indent=" " * 13,
                                     break_long_words=False, break_on_hyphens=False))


def _plain_value(v) -> str:
    """An option default as typed on the command line: ``true``, ``3``, ``right``, ``a,b``."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return ",".join(str(x) for x in v)
    return str(v)


@main.command()
@click.argument("ruleset")
@click.option("--players", "-p", type=int, default=None, help="Explain for this many players (default: every count).")
@option_opt
def explain(ruleset, players, option):
    """The rules of RULESET in plain English: deck, deal per player count, steps, scoring, match, options."""
    from .authoring.explain import explain as explain_text
    opts = _options(option, ruleset)
    if players is not None:
        _game(ruleset, players, opts)      # a bad --players is reported like everywhere else
    click.echo(explain_text(ruleset, players, opts), nl=False)


@main.command("diff")
@click.argument("a")
@click.argument("b")
@click.option("--option-a", "option_a", multiple=True, metavar="NAME=VALUE", help="An option of A (repeatable).")
@click.option("--option-b", "option_b", multiple=True, metavar="NAME=VALUE", help="An option of B (repeatable).")
@click.option("--simulate", "n", type=int, default=0, metavar="N",
              help="Also simulate N matches of each and compare the statistics (95 % intervals).")
@click.option("--players", "-p", type=int, default=None, help="Players for --simulate (default: smallest common).")
@click.option("--bots", default=None, metavar="SPEC,…", help="Bots for --simulate (as in simulate).")
@click.option("--seed", "-s", default="0", help="Seed for --simulate.")
@click.option("--workers", "-w", type=int, default=1, help="Processes for --simulate.")
def diff_cmd(a, b, option_a, option_b, n, players, bots, seed, workers):
    """What differs between rulesets A and B after extends: and options, in parts and in words."""
    from .authoring.diff import diff_text, simulate_both
    oa, ob = _options(option_a, a), _options(option_b, b)
    click.echo(diff_text(a, b, oa, ob), nl=False)
    if n:
        click.echo("")
        for line in simulate_both(a, b, n, players, oa, ob, _seed(seed), workers, bots):
            click.echo(line)


@main.command()
@click.argument("name")
@click.option("--from", "base", required=True, metavar="BASE", help="The ruleset to extend (built-in name or path).")
@click.option("--output", "-o", default=None, metavar="FILE", help="Where to write (default: NAME.yaml here).")
@click.option("--force", is_flag=True, help="Overwrite FILE if it exists.")
def new(name, base, output, force):
    """Write a commented two-line variant NAME of BASE, listing BASE's options to change."""
    from .authoring.scaffold import write_variant
    path = write_variant(base, name, output, force)
    click.echo(f"wrote {path}: extends {base}; check it with: cardspec validate {path} "
               f"(editors read the schema copied beside it, .cardspec/ruleset.schema.json)")


@main.command()
def lsp():
    """Run the language server for ruleset files over stdio (diagnostics, completion, hover; docs/editors.md)."""
    from .authoring.lsp import serve_stdio
    sys.exit(serve_stdio())


@main.command()
@click.option("--out", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write it to this file (e.g. .cardspec/ruleset.schema.json, where cardspec new points editors).")
def schema(out):
    """Print the ruleset JSON Schema (or write it to a file with --out)."""
    from .rules import schema_path
    text = schema_path().read_text(encoding="utf-8")
    if out is None:
        click.echo(text)
        return
    try:
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
        with open(out, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise click.ClickException(f"cannot write {out}: {e.strerror or e}") from None
    click.echo(f"wrote {out}")


@main.command()
@click.argument("rulesets", nargs=-1, required=True)
@option_opt
@click.option("--quiet", "-q", is_flag=True, help="Print only problems.")
@click.option("--quick", is_flag=True, help="Skip the option extremes and the random games (compile and deal only).")
@click.option("--strict", is_flag=True, help="Fail (exit 1) on warnings too, e.g. in CI.")
def validate(rulesets, option, quiet, quick, strict):
    """Check rulesets (files or built-in names): YAML, schema, expressions, semantics, play.

    Each ruleset is compiled for every supported player count, every deal of
    its schedule is dealt, each option is tried at its extremes and a few
    random games are played (not with --quick). Problems print as
    file:line:col: error: message (warning: for what is usable but probably
    not meant, e.g. an option nothing reads, or a value every seat sees that
    reads hidden cards). Exit 0 valid (warnings too; with --strict a warning
    is a failure), 1 invalid, 2 unusable input (missing file).
    """
    from .authoring.validate import validate_ruleset
    worst = 0
    for name in rulesets:
        problems, status = validate_ruleset(name, _options(option, name), play=not quick)
        for p in problems:
            click.echo(p.format(), err=True)
        if strict and status == 0 and problems:
            status = 1
            click.echo(f"{name}: {len(problems)} warning{'s' if len(problems) > 1 else ''} (--strict)", err=True)
            worst = max(worst, status)
            continue
        worst = max(worst, status)
        if status == 0 and not quiet:
            warned = len(problems)
            click.echo(f"{name}: ok" + (f" ({warned} warning{'s' if warned > 1 else ''})" if warned else ""))
    sys.exit(worst)


#: --bots of play and tui.
BOTS_HELP = ("Opponents: one spec for every bot seat, or one per seat separated by commas (the last repeats): "
             "random, policy:NAME (the ruleset's policy), ismcts:500 (playouts), ismcts:0.5s, meld, induction.")


def _check_bots(game, bots):
    """Make the opponents once before play, so that a bad --bots is a usage error, not a traceback."""
    if bots:
        from .play.terminal import make_bots
        try:
            make_bots(game, 0, bots)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="--bots") from None


@main.command()
@click.argument("ruleset")
@click.option("--players", "-p", type=int, default=None, help="Number of players (default: the ruleset's players: default, else its minimum).")
@click.option("--seed", "-s", default="0", help="Seed for shuffles and bots.")
@option_opt
@click.option("--json", "as_json", is_flag=True, help="Print the replay JSON shape instead of a log.")
@click.option("--human", type=int, default=None, metavar="SEAT", help="Play this seat yourself in the terminal.")
@click.option("--dealer", type=int, default=None, help="First dealer's seat.")
@click.option("--quiet", "-q", is_flag=True, help="Print only each deal's summary and the result.")
@click.option("--bots", default=None, metavar="SPEC,…", help=BOTS_HELP)
def play(ruleset, players, seed, option, as_json, human, dealer, quiet, bots):
    """Play a whole match with bots (and optionally one human seat): random bots, or the ruleset's
    default bot, unless --bots names the opponents (cardspec info RULESET lists its policies). A human seat
    plays against the ruleset's own bot or first policy, else a searching bot (ISMCTS), unless --bots."""
    from .play.terminal import play_match
    game = _game(ruleset, players, _options(option, ruleset))
    if human is not None and not 0 <= human < game.n:
        raise click.BadParameter(f"no seat {human} with {game.n} players", param_hint="--human")
    if human is not None and as_json:
        raise click.BadParameter("--json prints a replay for programs; a human seat plays in the terminal: "
                                 "use one or the other", param_hint="--json")
    if dealer is not None and not 0 <= dealer < game.n:
        raise click.BadParameter(f"no seat {dealer} with {game.n} players", param_hint="--dealer")
    _check_bots(game, bots)
    play_match(game, seed=_seed(seed), dealer=dealer, human=human, as_json=as_json, quiet=quiet, bots=bots)


@main.command()
@click.argument("ruleset")
@click.option("--players", "-p", type=int, default=None, help="Number of players (default: the ruleset's players: default, else its minimum).")
@click.option("--seat", type=int, default=0, show_default=True, help="The seat you play; bots play the others.")
@click.option("--seed", "-s", default="0", help="Seed for shuffles and bots.")
@option_opt
@click.option("--delay", type=click.FloatRange(0, 10), default=0.4, show_default=True,
              help="Seconds between the bots' actions.")
@click.option("--ascii", "ascii_only", is_flag=True, help="Suits as letters S H D C, no colour (any terminal).")
@click.option("--bots", default=None, metavar="SPEC,…", help=BOTS_HELP)
def tui(ruleset, players, seat, seed, option, delay, ascii_only, bots):
    """Play one seat at a terminal table (Textual; pip install 'cardspec[tui]'). Mouse or keys:
    ←/→ and Enter choose cards, ':' types an action; 'cardspec play --human' needs no extra."""
    game = _game(ruleset, players, _options(option, ruleset))
    if not 0 <= seat < game.n:
        raise click.BadParameter(f"no seat {seat} with {game.n} players", param_hint="--seat")
    try:
        from .play.tui import CardTableApp
    except ImportError:
        raise click.ClickException("cardspec tui needs Textual: pip install 'cardspec[tui]' "
                                   "(or play in any terminal with: cardspec play RULESET --human 0)") from None
    _check_bots(game, bots)
    CardTableApp(game, seat=seat, seed=_seed(seed), delay=delay, ascii_only=ascii_only, bots=bots).run()


@main.command()
@click.argument("ruleset")
@click.option("-n", "matches", type=int, default=1000, show_default=True, help="Number of whole matches.")
@click.option("--players", "-p", type=int, default=None, help="Number of players (default: the ruleset's players: default, else its minimum).")
@click.option("--bots", default=None, metavar="SPEC,…",
              help="Bot per seat, the last repeats: random, ismcts, ismcts:500 (iterations), ismcts:0.2s, "
                   "policy:NAME (default: random).")
@click.option("--policy", default=None, metavar="NAME", help="Ruleset policy for policy seats (all seats if no --bots).")
@click.option("--workers", "-w", type=int, default=1, show_default=True, help="Processes (results do not depend on it).")
@click.option("--executor", default=None, metavar="SPEC",
              help="Where matches run: processes, dask (a local cluster of --workers), dask://HOST:PORT, ray, "
                   "ray://HOST:PORT (docs/simulate.md). Results do not depend on it.")
@click.option("--seed", "-s", default="0", help="Seed; match i is seeded from (seed, i).")
@option_opt
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--csv", "as_csv", is_flag=True, help="Print one CSV row per seat (or team).")
@click.option("--plot", "plot_path", default=None, metavar="FILE.png", help="Write score distributions (matplotlib).")
def simulate(ruleset, matches, players, bots, policy, workers, executor, seed, option, as_json, as_csv, plot_path):
    """Play N whole matches between bots; print win/loss rates (95 % Wilson CIs), scores, lengths."""
    from .play import simulate as sim
    if as_json and as_csv:
        raise click.BadParameter("choose one of --json and --csv", param_hint="--json/--csv")
    opts = _options(option, ruleset)
    if players is not None:
        _game(ruleset, players, opts)   # a bad --players is reported before any match starts
    bar = None
    try:
        import rich  # noqa: F401  (the progress bar; simulate works without it)
    except ImportError:
        rich = None
    if sim.progress_enabled() and rich is not None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
        bar = Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                       console=Console(stderr=True), transient=True)
    ex = sim.make_executor(executor, workers) if executor else None
    try:
        if bar is not None:
            with bar:
                task = bar.add_task("matches", total=matches)
                res = sim.simulate(ruleset, matches, players, bots, policy, workers, _seed(seed), opts,
                                   progress=lambda done: bar.update(task, completed=done), executor=ex)
        else:
            res = sim.simulate(ruleset, matches, players, bots, policy, workers, _seed(seed), opts, executor=ex)
    finally:
        if ex is not None:
            ex.shutdown()
    if plot_path:
        sim.plot(res, plot_path)
    if as_json:
        click.echo(json.dumps(res, indent=1))
    elif as_csv:
        click.echo(sim.format_csv(res), nl=False)
    else:
        click.echo(sim.format_table(res))
        if plot_path:
            click.echo(f"plot: {plot_path}")


def _seed(text):
    try:
        return int(text)
    except ValueError:
        return text


@main.command()
@click.argument("scenario", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print events, terminal, to_act, legal_actions and scores as JSON.")
@option_opt
def replay(scenario, as_json, option):
    """Replay a scenario file and check its expect: block (exit 1 if a check fails)."""
    from .authoring.scenario import replay as run
    _scenario_file(scenario)
    rep = run(scenario, _options(option), _origins(option))
    # An illegal action in a scenario without expectations is bad input (exit 2, DESIGN.md "Errors");
    # a failed expect: check exits 1 (the expectations a refused action left unreached are not checked).
    bad_action = rep.error is not None and rep.failures == [rep.error] and not rep.unchecked
    if as_json:
        click.echo(json.dumps(rep.result(), indent=1))
    else:
        from .play.terminal import format_events
        if rep.state is not None:
            for line in format_events(rep.state.game, rep.state.log_all()):
                click.echo(line)
        if bad_action:
            click.echo(_message(_Bad(rep.error_at or rep.error)), err=True)
        else:
            for f in rep.failures:
                click.echo(f"FAILED: {rep.error_at if f == rep.error and rep.error_at else f}", err=True)
            if rep.unchecked:
                click.echo(f"not checked (the replay stopped at the refused action): {', '.join(rep.unchecked)}",
                           err=True)
        if rep.ok:
            has_expect = bool(getattr(rep, "expect", None))
            click.echo("ok: every expectation holds" if has_expect else "ok: every action was legal")
    sys.exit(0 if rep.ok else 2 if bad_action else 1)


@main.command()
@click.option("--stdio", is_flag=True, help="Line-delimited JSON on stdin/stdout (bots move at once).")
@click.option("--http", "http", default=None, metavar="HOST:PORT",
              help="WebSocket + HTTP API + the browser table at http://HOST:PORT/ (port 0: a free one).")
@click.option("--max-tables", type=click.IntRange(1), default=200, show_default=True)
@click.option("--max-message-bytes", type=click.IntRange(256), default=65536, show_default=True)
@click.option("--idle-timeout", type=click.FloatRange(0.1), default=1800.0, show_default=True,
              help="Seconds without activity after which a table is closed.")
@click.option("--bot-delay", type=click.FloatRange(0, 10), default=0.5, show_default=True,
              help="Seconds before each bot move over WebSocket, unless a table asks for another.")
@click.option("--max-tables-per-client", type=click.IntRange(1), default=16, show_default=True,
              help="Open tables one connection may hold.")
@click.option("--max-tables-per-address", type=click.IntRange(1), default=64, show_default=True,
              help="Open tables one address may hold.")
@click.option("--max-tables-per-network", type=click.IntRange(1), default=96, show_default=True,
              help="Open tables one network (/24 IPv4, /64 IPv6) may hold.")
@click.option("--evict-idle-after", type=click.FloatRange(0), default=120.0, show_default=True, metavar="SECONDS",
              help="On a full server, a table of the most crowded network idle this long makes room for another network.")
@click.option("--max-connections-per-address", type=click.IntRange(1), default=64, show_default=True)
@click.option("--max-bot-iterations", type=click.IntRange(1), default=5000, show_default=True,
              help="Cap of ismcts:N (iterations per move).")
@click.option("--max-bot-seconds", type=click.FloatRange(0.01, 60), default=2.0, show_default=True,
              help="Cap of ismcts:Xs (seconds per move).")
@click.option("--max-bot-seconds-per-minute", type=click.FloatRange(0), default=60.0, show_default=True,
              help="Seconds of bot search one client (address) may use in any minute; past it its bots move at random.")
@click.option("--max-bot-seconds-per-minute-total", type=click.FloatRange(0), default=180.0, show_default=True,
              help="Seconds of bot search every table together may use in any minute.")
@click.option("--max-call-seconds", type=click.FloatRange(0.1, 600), default=5.0, show_default=True,
              help="CPU seconds one engine call (an action with its judgement, a bot move, a listing) may take.")
@click.option("--max-call-memory", type=click.IntRange(16, 1 << 20), default=1024, show_default=True, metavar="MB",
              help="--http: megabytes a worker process may grow by in one call (a bot move, a listing, a typed rule).")
@click.option("--store", default=None, metavar="URL",
              help="Where tables are kept so a restart loses none: sqlite:///PATH, postgresql://USER@HOST/DB, "
                   "or none (memory only). Default: --http sqlite:///cardspec-tables.db; --stdio none (a session "
                   "over stdio keeps its tables only when a store is named).")
@click.option("--allow-origin", "allow_origin", multiple=True, metavar="URL",
              help="A page origin allowed to open WebSockets and create tables (repeatable; '*': any). "
                   "Default: the same host only.")
@click.option("--allow-host", "allow_host", multiple=True, metavar="NAME",
              help="--http: a Host name the server answers to besides the bound address (repeatable; '*': any), "
                   "e.g. the name a reverse proxy forwards. Others get http/bad_host (DNS rebinding).")
def serve(stdio, http, max_tables, max_message_bytes, idle_timeout, bot_delay, max_tables_per_client,
          max_tables_per_address, max_tables_per_network, evict_idle_after, max_connections_per_address, max_bot_iterations, max_bot_seconds,
          max_bot_seconds_per_minute, max_bot_seconds_per_minute_total, max_call_seconds,
          max_call_memory, allow_origin, allow_host, store):
    """Serve the table protocol (docs/protocol.md) over stdio or HTTP/WebSocket."""
    from .serve.protocol import Limits
    from .serve.store import DEFAULT_URL, open_store
    if bool(stdio) == bool(http):
        raise click.UsageError("choose one of --stdio and --http HOST:PORT")
    limits = Limits(max_tables=max_tables, max_message_bytes=max_message_bytes, idle_timeout=idle_timeout,
                    bot_delay=bot_delay, max_tables_per_client=max_tables_per_client,
                    max_tables_per_address=max_tables_per_address, max_tables_per_network=max_tables_per_network,
                    evict_idle_after=evict_idle_after, max_connections_per_address=max_connections_per_address, max_bot_iterations=max_bot_iterations,
                    max_bot_seconds=max_bot_seconds, max_call_seconds=max_call_seconds,
                    max_bot_seconds_per_minute=max_bot_seconds_per_minute,
                    max_bot_seconds_per_minute_total=max_bot_seconds_per_minute_total,
                    max_call_memory=max_call_memory << 20)
    if not stdio:
        from .serve.server import parse_address
        try:
            parse_address(http)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="--http") from None
    if store is None:
        store = "none" if stdio else DEFAULT_URL
    db = None
    if store != "none":
        db = open_store(store)
        click.echo(f"cardspec: tables are kept in {db.url} (--store none: in memory only)", err=True)
    if stdio:
        from .serve.protocol import serve_stdio
        sys.exit(serve_stdio(limits=limits, store=db))
    from .serve.server import serve_http
    try:
        sys.exit(serve_http(http, limits, allow_origins=allow_origin, store=db, allow_hosts=allow_host))
    except OSError as e:
        click.echo(f"error: cannot serve on {http}: {e.strerror or e}", err=True)
        sys.exit(2)


@main.command()
@click.argument("scenario", type=click.Path(dir_okay=False))
@click.option("--seconds", "-t", type=click.FloatRange(0), default=10.0, show_default=True,
              callback=lambda ctx, param, v: _finite(v, param), help="Time limit (wall clock).")
@click.option("--method", type=click.Choice(["dfpn", "pns", "alphabeta"]), default="dfpn", show_default=True,
              help="Depth-first or best-first proof-number search, or iterative-deepening alpha-beta.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@option_opt
def solve(scenario, seconds, method, as_json, option):
    """Solve the position a scenario file reaches (deck:/deal: + actions), for a two-player ruleset
    with nothing hidden: the value (win/loss/draw for the side to move) and a best move (docs/solve.md).

    Exit 0 with an answer (proven or not), 2 for a bad scenario or a position that cannot be solved.
    """
    from .authoring.scenario import replay as run
    from .players.solve import solve as run_solve
    _scenario_file(scenario)
    rep = run(scenario, _options(option), _origins(option))
    if rep.error:
        raise _Bad(rep.error_at or rep.error)
    res = run_solve(rep.state, seconds, method)
    if as_json:
        click.echo(json.dumps(res.as_json(), indent=1))
        return
    click.echo(res.describe())
    for text, (lo, hi) in res.moves.items():
        from .players.solve import VALUE_WORDS
        click.echo(f"  {text:<16} {VALUE_WORDS[lo] if lo == hi else VALUE_WORDS[lo] + '..' + VALUE_WORDS[hi]}")
    depth = f", {res.depth} decisions deep" if res.method == "alphabeta" else ""
    click.echo(f"({res.method}: {res.nodes} positions in {res.seconds:.2f} s{depth})")


def _finite(value, param):
    """A number option that must be finite (``nan`` would compare false with every clock reading: no limit)."""
    if value is not None and not math.isfinite(value):
        raise click.BadParameter(f"{value} is not a finite number of seconds", param=param)
    return value


class _Bad(CardspecError):
    code = "scenario/illegal"


if __name__ == "__main__":  # pragma: no cover
    main()
