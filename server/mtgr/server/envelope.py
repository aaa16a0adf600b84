"""What a frame's body is as a JSON-RPC 2.0 message, decided before pygls sees it.

pygls answers some malformed messages with the wrong code and others not at all (a client
then waits forever), so every body is classified here first: a request, a notification,
a response, or a `Rejected` with the error JSON-RPC 2.0 prescribes.

Ids. JSON-RPC 2.0 lets an id be a string, a number or null, but says it "SHOULD normally
not be Null" and numbers "SHOULD NOT contain fractional parts"; LSP, the protocol served
here, narrows a request's id to `integer | string`. So an id that is null, fractional,
boolean, an array or an object makes the request invalid: -32600 Invalid Request, answered
with id null (JSON-RPC: the id "MUST be Null" when it could not be detected).
Batches (a JSON array) are not part of LSP and get one -32600 with id null.
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass
from typing import Any

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
SERVER_NOT_INITIALIZED = -32002

# LSP's messages nest about ten levels; anything far deeper is refused before it can
# exhaust the stack of the JSON decoder or of the converter that types the params
MAX_DEPTH = 100

MessageId = int | str


class Kind(enum.Enum):
    REQUEST = "request"
    NOTIFICATION = "notification"
    RESPONSE = "response"


@dataclass(frozen=True)
class Incoming:
    kind: Kind
    data: dict[str, Any]
    method: str | None = None
    id: MessageId | None = None


@dataclass(frozen=True)
class Rejected:
    """A message the server cannot take. `answer` is False for what JSON-RPC never
    answers (a notification, a response): those are only logged."""

    code: int
    message: str
    id: MessageId | None = None
    answer: bool = True

    def response(self) -> dict[str, Any]:
        return {
            "jsonrpc": "2.0",
            "id": self.id,
            "error": {"code": self.code, "message": self.message},
        }


def valid_id(value: object) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def decode(body: bytes) -> Incoming | Rejected:
    """The message in a frame's body; never raises."""
    try:
        data = json.loads(body)
    except RecursionError:
        return Rejected(PARSE_ERROR, f"Parse error: JSON nested deeper than {MAX_DEPTH} levels")
    except ValueError as error:  # also text that is not UTF-8
        return Rejected(PARSE_ERROR, f"Parse error: {_short(str(error))}")
    if _deeper_than(data, MAX_DEPTH):
        return Rejected(PARSE_ERROR, f"Parse error: JSON nested deeper than {MAX_DEPTH} levels")
    if not isinstance(data, dict):
        return Rejected(INVALID_REQUEST, "Invalid Request: a message is a JSON object")
    return classify(data)


def classify(data: dict[str, Any]) -> Incoming | Rejected:
    has_id = "id" in data
    msg_id = data.get("id")
    answer_to = msg_id if valid_id(msg_id) else None
    if "method" in data:
        if not has_id:
            kind = Kind.NOTIFICATION
        elif not valid_id(msg_id):
            return Rejected(INVALID_REQUEST, "Invalid Request: an id is an integer or a string")
        else:
            kind = Kind.REQUEST
        answer = kind is Kind.REQUEST
        if data.get("jsonrpc") != "2.0":
            return Rejected(
                INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"', answer_to, answer
            )
        method = data["method"]
        if not isinstance(method, str):
            return Rejected(
                INVALID_REQUEST, "Invalid Request: a method is a string", answer_to, answer
            )
        if "params" in data and data["params"] is None:
            # `"params": null` is what many clients send for a method without params
            # (shutdown, exit): read as no params, not as an invalid request
            data = {key: value for key, value in data.items() if key != "params"}
        if "params" in data and not isinstance(data["params"], dict | list):
            return Rejected(
                INVALID_REQUEST,
                "Invalid Request: params are an object or an array",
                answer_to,
                answer,
            )
        return Incoming(kind, data, method, answer_to)
    if ("result" in data or "error" in data) and has_id:
        if data.get("jsonrpc") != "2.0" or not (valid_id(msg_id) or msg_id is None):
            return Rejected(INVALID_REQUEST, "a response that is not JSON-RPC 2.0", answer=False)
        return Incoming(Kind.RESPONSE, data, None, answer_to)
    return Rejected(INVALID_REQUEST, "Invalid Request: neither a request nor a response", answer_to)


def _deeper_than(value: object, limit: int) -> bool:
    """Walks containers without recursion."""
    pending: list[tuple[object, int]] = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        children = (
            item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        )
        if not children:
            continue
        if depth > limit:
            return True
        pending.extend((child, depth + 1) for child in children)
    return False


def _short(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit] + "..."
