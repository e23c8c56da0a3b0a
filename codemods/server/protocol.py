"""``jaxfix server``: the Language Server Protocol over stdio, on pygls.

* Diagnostics when a document opens, and again a moment after it stops
  changing (``debounce`` seconds, 0.1 by default, an ``initializationOptions``
  key), published with the version of the text they were computed on; a
  result for a text that has changed since is dropped, never shown.
* Code actions on a finding: its fix as a ``quickfix`` (a safe one preferred,
  an unsafe one titled as unsafe), and "suppress on this line"; for the
  document, ``source.fixAll.jaxfix``, which applies what ``jaxfix migrate``
  would (unsafe fixes only where the file's ``[tool.jaxfix]`` allows them).
  A fix that also edits another module of the project carries that edit too.
* Documents are synchronised whole (``TextDocumentSyncKind.Full``): pygls's
  incremental sync splits lines where Python's ``str.splitlines`` does, at
  form feeds too, which the protocol does not.

Checks run one at a time on one worker thread (the engine's per-file
analysis is not thread-safe, and one at a time is what keeps the project's
caches warm); the protocol's own thread stays free to read messages.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlparse

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from jaxfix.transforms import Applicability, Edit, Finding

from ..sourcefile import InputError, decode, read_bytes
from ..version import version
from .positions import UTF8, UTF16, UTF32, Lines
from .session import Checked, Session
from .suppress import suppression_edit

FIX_ALL = "source.fixAll.jaxfix"
SOURCE = "jaxfix"
_ENCODINGS = {types.PositionEncodingKind.Utf8: UTF8, types.PositionEncodingKind.Utf16: UTF16, types.PositionEncodingKind.Utf32: UTF32}


class JaxfixServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("jaxfix", version(), text_document_sync_kind=types.TextDocumentSyncKind.Full)
        self.session = Session()
        self.checker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="jaxfix-check")
        self.debounce = 0.1
        #: uri -> (the version checked, what the check found)
        self.checked: dict[str, tuple[int | None, Checked]] = {}
        self._pending: dict[str, asyncio.Task] = {}

    # -- checking ------------------------------------------------------------------------------

    @property
    def encoding(self) -> str:
        return _ENCODINGS.get(self.workspace.position_encoding, UTF16)  # type: ignore[arg-type]

    def schedule(self, uri: str, delay: float) -> None:
        """Check the document after `delay` seconds without a newer change."""
        pending = self._pending.pop(uri, None)
        if pending is not None:
            pending.cancel()
        self._pending[uri] = asyncio.ensure_future(self._check_later(uri, delay))

    async def _check_later(self, uri: str, delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        document = self.workspace.get_text_document(uri)
        version, text = document.version, document.source
        checked = await self.run_check(uri, text)
        if uri not in self.workspace.text_documents or self.workspace.get_text_document(uri).version != version:
            return  # the text changed while it was checked: its own check will publish
        self.checked[uri] = (version, checked)
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics(checked, self.encoding), version=version)
        )

    async def run_check(self, uri: str, text: str, *, fix: bool = False) -> Checked:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.checker, lambda: self.session.check(path_of(uri), text, fix=fix))

    async def current(self, uri: str) -> tuple[int | None, Checked]:
        """The check of the document's text as it is now (checked again if it changed since)."""
        document = self.workspace.get_text_document(uri)
        stored = self.checked.get(uri)
        if stored is not None and stored[0] == document.version and stored[1].text == document.source:
            return stored
        return document.version, await self.run_check(uri, document.source)

    def recheck_open_documents(self) -> None:
        for uri in list(self.workspace.text_documents):
            self.schedule(uri, self.debounce)

    # -- edits ---------------------------------------------------------------------------------

    def workspace_edit(self, uri: str, version: int | None, text: str, edits: list[Edit]) -> types.WorkspaceEdit | None:
        """The edits (some in other files: Edit.file) as one WorkspaceEdit; None when another file's
        open buffer no longer holds the text the edit was computed on."""
        by_file: dict[str, list[Edit]] = {}
        for edit in edits:
            by_file.setdefault(edit.file, []).append(edit)
        changes: list[tuple[str, int | None, list[types.TextEdit]]] = []
        for file, file_edits in by_file.items():
            if not file:
                changes.append((uri, version, text_edits(text, file_edits, self.encoding)))
                continue
            other_uri = Path(file).as_uri()
            try:
                on_disk = decode(read_bytes(Path(file))).text
            except InputError:
                return None
            other_version = None
            if other_uri in self.workspace.text_documents:
                other = self.workspace.get_text_document(other_uri)
                if other.source != on_disk:
                    return None  # edited in the editor since it was read from disk
                other_version = other.version
            changes.append((other_uri, other_version, text_edits(on_disk, file_edits, self.encoding)))
        capabilities = self.client_capabilities.workspace
        if capabilities and capabilities.workspace_edit and capabilities.workspace_edit.document_changes:
            return types.WorkspaceEdit(
                document_changes=[
                    types.TextDocumentEdit(types.OptionalVersionedTextDocumentIdentifier(uri=u, version=v), e)  # type: ignore[arg-type]
                    for u, v, e in changes
                ]
            )
        return types.WorkspaceEdit(changes={u: e for u, _, e in changes})

    def client_resolves_edits(self) -> bool:
        document = self.client_capabilities.text_document
        action = document.code_action if document else None
        support = action.resolve_support if action else None
        return bool(support and "edit" in support.properties)


def path_of(uri: str) -> Path | None:
    """The file a document is (None for an untitled buffer)."""
    if urlparse(uri).scheme != "file":
        return None
    path = to_fs_path(uri)
    return Path(path) if path else None


def text_edits(text: str, edits: list[Edit], encoding: str) -> list[types.TextEdit]:
    lines = Lines(text, encoding)
    return [types.TextEdit(range=_range(lines, e.start, e.end), new_text=e.content) for e in sorted(edits)]


def _range(lines: Lines, start: int, end: int) -> types.Range:
    (a, b), (c, d) = lines.position(start), lines.position(end)
    return types.Range(start=types.Position(line=a, character=b), end=types.Position(line=c, character=d))


def _finding_range(lines: Lines, finding: Finding) -> types.Range:
    (a, b) = lines.line_column(finding.span.start.line, finding.span.start.column)
    (c, d) = lines.line_column(finding.span.end.line, finding.span.end.column)
    return types.Range(start=types.Position(line=a, character=b), end=types.Position(line=c, character=d))


def diagnostics(checked: Checked, encoding: str) -> list[types.Diagnostic]:
    lines = Lines(checked.text, encoding)
    out = []
    for index, finding in enumerate(checked.findings):
        message = finding.message + "".join(f"\nnote: {note}" for note in finding.notes)
        out.append(
            types.Diagnostic(
                range=_finding_range(lines, finding),
                message=message,
                severity=types.DiagnosticSeverity.Warning,
                code=finding.code,
                source=SOURCE,
                data={"finding": index},
            )
        )
    if checked.problem is not None:
        line, message = checked.problem
        where = types.Position(line=max(0, (line or 1) - 1), character=0)
        out.append(
            types.Diagnostic(
                range=types.Range(start=where, end=where),
                message=message,
                severity=types.DiagnosticSeverity.Error,
                source=SOURCE,
            )
        )
    return out


def _overlaps(a: types.Range, b: types.Range) -> bool:
    def key(p: types.Position) -> tuple[int, int]:
        return (p.line, p.character)

    return key(a.start) <= key(b.end) and key(b.start) <= key(a.end)


def _wanted(kind: str, only: list[str] | None) -> bool:
    return only is None or any(kind == k or kind.startswith(f"{k}.") for k in only)


def make_server() -> JaxfixServer:
    server = JaxfixServer()

    @server.feature(types.INITIALIZE)
    def initialize(ls: JaxfixServer, params: types.InitializeParams) -> None:
        options = params.initialization_options
        if isinstance(options, dict) and isinstance(options.get("debounce"), (int, float)):
            ls.debounce = max(0.0, float(options["debounce"]))

    @server.feature(types.INITIALIZED)
    def initialized(ls: JaxfixServer, params: types.InitializedParams) -> None:
        workspace = ls.client_capabilities.workspace
        watched = workspace.did_change_watched_files if workspace else None
        if watched and watched.dynamic_registration:
            watchers = [types.FileSystemWatcher(glob_pattern=g) for g in ("**/*.py", "**/pyproject.toml")]
            registration = types.Registration(
                id="jaxfix-watched-files",
                method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers),
            )
            ls.client_register_capability(types.RegistrationParams(registrations=[registration]))

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: JaxfixServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0.0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: JaxfixServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, ls.debounce)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: JaxfixServer, params: types.DidSaveTextDocumentParams) -> None:
        path = path_of(params.text_document.uri)
        if path is not None:
            await asyncio.get_running_loop().run_in_executor(ls.checker, ls.session.file_changed, path)
        ls.recheck_open_documents()  # what other modules see of this one has changed

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: JaxfixServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        pending = ls._pending.pop(uri, None)
        if pending is not None:
            pending.cancel()
        ls.checked.pop(uri, None)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    async def did_change_watched_files(ls: JaxfixServer, params: types.DidChangeWatchedFilesParams) -> None:
        for change in params.changes:
            path = path_of(change.uri)
            if path is not None and path.suffix == ".py":
                await asyncio.get_running_loop().run_in_executor(ls.checker, ls.session.file_changed, path)
        ls.recheck_open_documents()

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(
            code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL], resolve_provider=True
        ),
    )
    async def code_action(ls: JaxfixServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        version, checked = await ls.current(uri)
        only = [str(k) for k in params.context.only] if params.context.only else None
        actions: list[types.CodeAction] = []
        by_index = {d.data.get("finding"): d for d in diagnostics(checked, ls.encoding) if isinstance(d.data, dict)}
        for index, finding in enumerate(checked.findings):
            diagnostic = by_index[index]
            if not _overlaps(diagnostic.range, params.range):
                continue
            if finding.fix is not None and _wanted(types.CodeActionKind.QuickFix, only):
                unsafe = finding.fix.applicability is Applicability.UNSAFE
                label = finding.fix.description or "apply the fix"
                edit = ls.workspace_edit(uri, version, checked.text, list(finding.fix.edits))
                if edit is not None:
                    actions.append(
                        types.CodeAction(
                            title=f"{finding.code} {'(unsafe) ' if unsafe else ''}fix: {label}",
                            kind=types.CodeActionKind.QuickFix,
                            diagnostics=[diagnostic],
                            is_preferred=not unsafe,
                            edit=edit,
                        )
                    )
            if _wanted(types.CodeActionKind.QuickFix, only):
                suppress = suppression_edit(checked.text, finding.line, finding.code)
                if suppress is not None:
                    actions.append(
                        types.CodeAction(
                            title=f"Suppress {finding.code} on this line",
                            kind=types.CodeActionKind.QuickFix,
                            diagnostics=[diagnostic],
                            edit=ls.workspace_edit(uri, version, checked.text, [suppress]),
                        )
                    )
        options = checked.options
        fixable = [
            f for f in checked.findings
            if f.fix is not None and (f.fix.applicability is Applicability.SAFE or (options and options.unsafe_fixes))
        ]  # fmt: skip
        if fixable and _wanted(FIX_ALL, only):
            fix_all = types.CodeAction(
                title="Fix all jaxfix findings", kind=FIX_ALL, data={"uri": uri, "version": version}
            )
            if not ls.client_resolves_edits():
                fix_all = await resolve_fix_all(ls, fix_all)
            actions.append(fix_all)
        return actions

    @server.feature(types.CODE_ACTION_RESOLVE)
    async def code_action_resolve(ls: JaxfixServer, action: types.CodeAction) -> types.CodeAction:
        if action.kind == FIX_ALL:
            return await resolve_fix_all(ls, action)
        return action

    return server


async def resolve_fix_all(ls: JaxfixServer, action: types.CodeAction) -> types.CodeAction:
    """The whole-document fix, as `jaxfix migrate` would make it, on the text as it is now."""
    data = action.data if isinstance(action.data, dict) else {}
    uri = data.get("uri")
    if not uri or uri not in ls.workspace.text_documents:
        return action
    document = ls.workspace.get_text_document(uri)
    checked = await ls.run_check(uri, document.source, fix=True)
    if checked.fixed is None or checked.fixed == document.source and not checked.remote:
        return action
    action.edit = ls.workspace_edit(uri, document.version, document.source, [changed_part(document.source, checked.fixed), *checked.remote])
    return action


def changed_part(old: str, new: str) -> Edit:
    """One edit from `old` to `new` covering only what lies between their common start and end
    (the editor keeps the cursor and folds outside it)."""
    start = 0
    limit = min(len(old), len(new))
    while start < limit and old[start] == new[start]:
        start += 1
    end = 0
    while end < limit - start and old[len(old) - 1 - end] == new[len(new) - 1 - end]:
        end += 1
    return Edit(start, len(old) - end, new[start : len(new) - end])


def serve() -> None:
    """Speak LSP on stdin and stdout until the client says exit."""
    make_server().start_io()
