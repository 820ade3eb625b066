"""``cardspec new NAME --from BASE`` (issue 24, item 4): a commented variant that validates as written."""
from click.testing import CliRunner

from cardspec.cli import main
from cardspec.rules import builtin_names, read_ruleset
from cardspec.authoring.validate import validate_ruleset


def test_every_builtin_gives_a_variant_that_validates_and_lists_its_options(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = CliRunner()
    for base in builtin_names():
        res = r.invoke(main, ["new", f"my-{base}", "--from", base])
        assert res.exit_code == 0, res.output
        text = (tmp_path / f"my-{base}.yaml").read_text()
        assert f"extends: {base}\nname: my-{base}\n" in text
        for opt in read_ruleset(base).options:
            assert f"#   {opt}: {{default: " in text, (base, opt)
        problems, status = validate_ruleset(str(tmp_path / f"my-{base}.yaml"))
        assert status == 0 and problems == [], (base, problems)
        rs = read_ruleset(str(tmp_path / f"my-{base}.yaml"))
        assert rs.name == f"my-{base}" and rs.data["deal"] == read_ruleset(base).data["deal"]


def test_uncommenting_an_option_line_changes_the_default(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    CliRunner().invoke(main, ["new", "short-hearts", "--from", "hearts"])
    f = tmp_path / "short-hearts.yaml"
    text = f.read_text().replace("# options:", "options:").replace("#   deals: {default: ", "  deals: {default: 1} #")
    f.write_text(text)
    assert read_ruleset(str(f)).options["deals"]["default"] == 1


def test_a_variant_of_a_file_in_another_folder_extends_it_by_relative_path(tmp_path, monkeypatch):
    base = tmp_path / "lib" / "base.yaml"
    base.parent.mkdir()
    base.write_text("extends: black-lady\nname: base\n")
    out = tmp_path / "work"
    out.mkdir()
    monkeypatch.chdir(out)
    res = CliRunner().invoke(main, ["new", "mine", "--from", str(base)])
    assert res.exit_code == 0, res.output
    assert "extends: ../lib/base.yaml" in (out / "mine.yaml").read_text()
    assert validate_ruleset(str(out / "mine.yaml"))[1] == 0


def test_bad_names_existing_files_and_unknown_bases_are_clear_errors(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = CliRunner()
    bad = r.invoke(main, ["new", "my hearts", "--from", "hearts"])
    assert bad.exit_code == 2 and "is not a ruleset name" in bad.output
    assert r.invoke(main, ["new", "x", "--from", "hearts"]).exit_code == 0
    again = r.invoke(main, ["new", "x", "--from", "hearts"])
    assert again.exit_code == 2 and "x.yaml exists already" in again.output
    unknown = r.invoke(main, ["new", "y", "--from", "heart"])
    assert unknown.exit_code == 2 and "hearts" in unknown.output and "Traceback" not in unknown.output


def test_the_schema_reference_survives_a_new_venv(tmp_path, monkeypatch):
    """Issue 35 item 9: "cardspec new writes a $schema path into the venv's site-packages (breaks when the
    venv or Python version changes)". The reference is a copy beside the file, refreshed by the next
    ``cardspec new`` there (or ``cardspec schema --out``), and never a path into the installed package."""
    import json
    from cardspec.rules import schema_path
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["new", "my-hearts", "--from", "hearts"])
    assert r.exit_code == 0, r.output
    first = (tmp_path / "my-hearts.yaml").read_text().splitlines()[0]
    assert first == "# yaml-language-server: $schema=./.cardspec/ruleset.schema.json"
    assert "site-packages" not in first and str(schema_path().parent) not in first
    copy = tmp_path / ".cardspec" / "ruleset.schema.json"
    assert json.loads(copy.read_text()) == json.loads(schema_path().read_text())
    copy.write_text("{}")                                       # an older release's copy …
    r = CliRunner().invoke(main, ["new", "my-spades", "--from", "hearts"])
    assert r.exit_code == 0 and json.loads(copy.read_text()) == json.loads(schema_path().read_text())   # … refreshed
    out = tmp_path / "elsewhere" / "s.json"
    r = CliRunner().invoke(main, ["schema", "--out", str(out)])
    assert r.exit_code == 0 and out.read_text() == schema_path().read_text()
