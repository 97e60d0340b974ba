"""The CLI's shape (issue 23): one module per command, each registered on the app, and every
output format of the renderer registry reachable from its command's `-o`."""
from __future__ import annotations

import importlib
import pkgutil

import pytest
from typer.testing import CliRunner

from podgroup_plan import cli
from podgroup_plan.render import registry

# The command whose `-o` chooses among each document's formats.
COMMAND_OF = {registry.RESULT: "simulate", registry.DIFF: "diff",
              registry.EXPLANATION: "explain", registry.WHAT_IF: "what_if",
              registry.HEADROOM: "headroom", registry.REPLAY: "replay"}


def command_name(module: str) -> str:
    """A command module's command: `what_if` -> `what-if`."""
    return module.replace("_", "-")


def registered() -> dict[str, str]:
    """Command name -> the module of its function, as the app holds them."""
    return {(c.name or c.callback.__name__): c.callback.__module__
            for c in cli.app.registered_commands}


def test_every_command_module_is_registered():
    commands = registered()
    assert list(commands) == [command_name(m) for m in cli.COMMAND_MODULES]  # the help's order too
    for name in cli.COMMAND_MODULES:
        assert commands[command_name(name)] == f"podgroup_plan.cli.{name}"


def test_no_module_registers_a_command_unlisted():
    """Every module of the package imported: the commands on the app are still exactly those
    of COMMAND_MODULES (a command module left out of it would be registered only by chance)."""
    for info in pkgutil.iter_modules(cli.__path__):
        if info.name != "__main__":
            importlib.import_module(f"podgroup_plan.cli.{info.name}")
    assert sorted(set(registered().values())) == sorted(
        f"podgroup_plan.cli.{name}" for name in cli.COMMAND_MODULES)


@pytest.mark.parametrize("document", sorted(registry.FORMATS))
def test_every_registered_format_is_an_o_choice(document):
    command = next(c for c in cli.app.registered_commands
                   if c.callback.__name__ == COMMAND_OF[document])
    assert command.callback.__module__ == f"podgroup_plan.cli.{COMMAND_OF[document]}"
    module = importlib.import_module(command.callback.__module__)
    assert module.FORMATS == list(registry.FORMATS[document])
    help_text = " ".join(CliRunner().invoke(cli.app, [command_name(COMMAND_OF[document]), "--help"]).output.split())
    assert f"-o, --output {'|'.join(registry.FORMATS[document])}" in help_text


@pytest.mark.parametrize("document,name", [(d, n) for d in sorted(registry.FORMATS)
                                           for n in registry.FORMATS[d]])
def test_every_registered_renderer_exists(document, name):
    """Each `module:function` of the registry names a function (text, and terminal if given)."""
    entry = registry.FORMATS[document][name]
    for target in filter(None, (entry.text, entry.terminal)):
        module, _, function = target.partition(":")
        assert callable(getattr(importlib.import_module(module), function)), target


@pytest.mark.parametrize("document,name", [(d, n) for d in sorted(registry.FORMATS)
                                           for n in registry.FORMATS[d]])
def test_every_registered_format_is_accepted_by_its_command(document, name, monkeypatch):
    """`-o NAME` parses (then the run is stopped before loading) for every registered name;
    a name not registered is refused with the registry's choices."""
    from podgroup_plan.cli import inputs

    monkeypatch.setattr(inputs, "load", lambda *a, **k: (_ for _ in ()).throw(SystemExit(0)))
    extra = {"simulate": [], "diff": ["--config-b", "b.yaml"], "explain": ["--pod", "a/b"],
             "what-if": ["--each", "zone"], "headroom": ["--workload", "w.yaml"], "replay": []}
    command = command_name(COMMAND_OF[document])
    runner = CliRunner()
    ok = runner.invoke(cli.app, [command, "x", "-o", name, *extra[command]])
    assert ok.exit_code == 0, ok.output
    bad = runner.invoke(cli.app, [command, "x", "-o", "nope", *extra[command]])
    assert bad.exit_code == 2
    choices = list(registry.FORMATS[document])
    assert f"use {', '.join(choices[:-1])} or {choices[-1]}" in " ".join(bad.output.split())
