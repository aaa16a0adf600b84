"""`mtgr cards update`: the current Scryfall `oracle_cards` file, found through Scryfall's
bulk-data API (whose answer names the file's `download_uri`), downloaded and imported.

The file is downloaded next to the index and imported from there; a download that stops
early (fewer bytes than announced, or a broken connection) is an error and the previous
index stays.
"""

from __future__ import annotations

import contextlib
import http.client
import importlib.metadata
import json
import os
import tempfile
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from mtgr.cards.formats import CardFileError
from mtgr.cards.store import build_index

BULK_DATA_API = "https://api.scryfall.com/bulk-data/oracle-cards"
_HEADERS = {
    "User-Agent": f"mtgr/{importlib.metadata.version('mtgr')}",
    "Accept": "application/json;q=0.9,*/*;q=0.8",
}
_CHUNK = 1 << 16

Progress = Callable[[int, int | None], None]  # (bytes so far, bytes in all or None)


def update(target: Path, api: str = BULK_DATA_API, progress: Progress | None = None) -> int:
    """Downloads the bulk file the API names and imports it into `target`; returns the count."""
    uri = _download_uri(api)
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".oracle-cards.", suffix=".json")
    try:
        with os.fdopen(handle, "wb") as out:
            _download(uri, out, progress)
        return build_index(Path(temporary), target)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)


def _get(uri: str) -> http.client.HTTPResponse:
    try:
        return urllib.request.urlopen(urllib.request.Request(uri, headers=_HEADERS), timeout=60)
    except urllib.error.HTTPError as error:
        raise CardFileError(f"{uri}: the server answered {error.code} {error.reason}") from None
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise CardFileError(
            f"{uri}: cannot connect ({reason}); the previous index is kept"
        ) from None


def _download_uri(api: str) -> str:
    with _get(api) as response:
        try:
            answer = json.loads(response.read())
        except (ValueError, http.client.HTTPException, OSError) as error:
            raise CardFileError(f"{api}: not a bulk-data answer ({error})") from None
    if isinstance(answer, dict) and answer.get("object") == "list":  # the list of every bulk file
        answer = next(
            (item for item in answer.get("data", ()) if item.get("type") == "oracle_cards"), None
        )
    if not isinstance(answer, dict) or not isinstance(answer.get("download_uri"), str):
        raise CardFileError(
            f'{api}: not a Scryfall bulk-data answer (expected an object with "download_uri")'
        )
    return answer["download_uri"]


def _download(uri: str, out: BinaryIO, progress: Progress | None) -> None:
    with _get(uri) as response:
        length = response.headers.get("Content-Length")
        total = int(length) if length and length.isdigit() else None
        done = 0
        try:
            while chunk := response.read(_CHUNK):
                out.write(chunk)
                done += len(chunk)
                if progress:
                    progress(done, total)
        except (http.client.HTTPException, OSError) as error:
            raise CardFileError(
                f"{uri}: the download stopped after {done} bytes ({error}); the previous index is kept"
            ) from None
        if total is not None and done < total:
            raise CardFileError(
                f"{uri}: the download stopped after {done} of {total} bytes; the previous index is kept"
            )
