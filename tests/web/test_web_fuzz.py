"""Every route in the OpenAPI document, called by an admin with arbitrary path values,
query values and JSON bodies: the answer is never a 5xx, and every refusal is in the
room's error shape. (Schema-driven fuzzing with schemathesis is issue 9's; this is
the cheap version that guards the promise from the start.)"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.kit import assert_refused, bearer

Who = tuple[int, str]

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-3, max_value=3)
    | st.floats()
    | st.text(max_size=20)
)
json_values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3)
    ),
    max_leaves=6,
)
path_values = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.integers(min_value=1, max_value=5).map(str),
    st.text(min_size=1, max_size=12),
)


def operations(app: FastAPI) -> list[tuple[str, str, dict[str, Any]]]:
    # Not sign-out: it takes no input, and would end the session the other calls use.
    return [
        (method.upper(), path, operation)
        for path, by_method in app.openapi()["paths"].items()
        for method, operation in by_method.items()
        if path != "/api/accounts/sign-out"
    ]


def body_for(operation: dict[str, Any], app: FastAPI) -> st.SearchStrategy[Any]:
    """Any JSON, or an object with the operation's own field names and any values
    (which reaches past "unknown field" to the type and rule checks)."""
    if "requestBody" not in operation:
        return st.none()
    ref = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    fields = app.openapi()["components"]["schemas"][ref.rsplit("/", 1)[-1]]["properties"]
    return json_values | st.fixed_dictionaries({name: json_values for name in fields})


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_no_route_answers_a_5xx(
    app: FastAPI, client: TestClient, player: Who, admin: Who, data: st.DataObject
) -> None:
    method, path, operation = data.draw(st.sampled_from(operations(app)), label="route")
    url = path
    query: dict[str, str] = {}
    for parameter in operation.get("parameters", []):
        value = data.draw(path_values, label=parameter["name"])
        if parameter["in"] == "path":
            url = url.replace("{" + parameter["name"] + "}", quote(value, safe=""))
        elif data.draw(st.booleans(), label=f"send {parameter['name']}"):
            query[parameter["name"]] = value
    body = data.draw(body_for(operation, app), label="body")
    headers = bearer(admin[1])
    content = None
    if body is not None:
        content = json.dumps(body)
        headers["Content-Type"] = "application/json"
    response = client.request(method, url, params=query, content=content, headers=headers)
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        assert_refused(response, response.status_code, response.json()["error"]["code"])
