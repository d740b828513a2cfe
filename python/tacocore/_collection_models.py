"""tacotoolbox's COLLECTION models: ``Provider``, ``Curator`` and ``Extent``, keyword-built with
the checks tacotoolbox's pydantic models make at construction (a ValueError naming the field), and
``model_dump()``, which ``Taco`` reads. Plain classes: tacocore does not depend on pydantic.

``Provider`` dumps the shape tacotoolbox >= 0.22 writes, ``{name, roles, url, links}``, which the
writer keeps even when only ``name`` is set; a plain ``{"name": ...}`` dict gives the spec's
``{name, organization, email, role}`` (USER-GUIDE §4).
"""

from __future__ import annotations

import datetime as _dt
from typing import Any, List, Optional


class _Model:
    _fields: tuple = ()

    def model_dump(self) -> dict:
        """The fields as a dict (lists copied), as pydantic's model_dump()."""
        return {f: _copy(getattr(self, f)) for f in self._fields}

    def __eq__(self, other: Any) -> bool:
        return type(other) is type(self) and other.model_dump() == self.model_dump()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{f}={getattr(self, f)!r}' for f in self._fields)})"


def _copy(value: Any) -> Any:
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return dict(value)
    return value


def _text(owner: str, field: str, value: Any, required: bool = False) -> Optional[str]:
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise ValueError(f"{owner}: {field} must be a string, not {type(value).__name__} {value!r}")
    return value


class Provider(_Model):
    """A data provider (STAC-compatible): ``Provider(name, roles=None, url=None, links=None)``;
    ``url`` must start with http:// or https://."""

    _fields = ("name", "roles", "url", "links")

    def __init__(self, *, name: str, roles: Optional[List[str]] = None, url: Optional[str] = None,
                 links: Optional[List[dict]] = None) -> None:
        self.name = _text("Provider", "name", name, required=True)
        if roles is not None:
            if isinstance(roles, (str, bytes)) or not all(isinstance(r, str) for r in roles):
                raise ValueError(f"Provider: roles must be a list of strings, not {roles!r}")
            roles = list(roles)
        self.roles = roles
        self.url = _text("Provider", "url", url)
        if self.url and not self.url.startswith(("http://", "https://")):
            raise ValueError("Provider: URL must start with http:// or https://")
        if links is not None:
            if isinstance(links, (str, bytes, dict)) or not all(
                    isinstance(link, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in link.items())
                    for link in links):
                raise ValueError(f"Provider: links must be a list of {{str: str}} objects, not {links!r}")
            links = [dict(link) for link in links]
        self.links = links


class Curator(_Model):
    """A dataset curator: ``Curator(name=None, organization=None, email=None, role=None)``; a name
    or an organization is required, and an email needs an '@'."""

    _fields = ("name", "organization", "email", "role")

    def __init__(self, *, name: Optional[str] = None, organization: Optional[str] = None,
                 email: Optional[str] = None, role: Optional[str] = None) -> None:
        self.name = _text("Curator", "name", name)
        self.organization = _text("Curator", "organization", organization)
        self.email = _text("Curator", "email", email)
        self.role = _text("Curator", "role", role)
        if not self.name and not self.organization:
            raise ValueError("Curator: either 'name' or 'organization' must be provided")
        if self.email and "@" not in self.email:
            raise ValueError("Curator: invalid email format - must contain '@' symbol")


class Extent(_Model):
    """Spatial ``[west, south, east, north]`` in WGS84 degrees (west > east crosses the
    antimeridian) and optional temporal ``[start, end]`` ISO 8601 strings, start not after end."""

    _fields = ("spatial", "temporal")

    def __init__(self, *, spatial: List[float], temporal: Optional[List[str]] = None) -> None:
        if isinstance(spatial, (str, bytes)) or len(spatial) != 4:
            raise ValueError("Extent: spatial extent must have exactly 4 values: [west, south, east, north]")
        west, south, east, north = (float(v) for v in spatial)
        if not (-180 <= west <= 180 and -180 <= east <= 180):
            raise ValueError("Extent: longitude values must be between -180 and 180 degrees")
        if not (-90 <= south <= 90 and -90 <= north <= 90):
            raise ValueError("Extent: latitude values must be between -90 and 90 degrees")
        if south > north:
            raise ValueError("Extent: south cannot be greater than north")
        self.spatial = [west, south, east, north]
        if temporal is not None:
            if isinstance(temporal, (str, bytes)) or len(temporal) != 2:
                raise ValueError("Extent: temporal extent must have exactly 2 values: [start_datetime, end_datetime]")
            start, end = (_instant(t) for t in temporal)
            if start > end:
                raise ValueError("Extent: start datetime must be before end datetime")
            temporal = list(temporal)
        self.temporal = temporal


def _instant(text: Any) -> _dt.datetime:
    if not isinstance(text, str):
        raise ValueError(f"Extent: temporal values must be ISO 8601 strings, not {text!r}")
    try:
        value = _dt.datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)
    except ValueError as error:
        raise ValueError(f"Extent: invalid datetime format. Use ISO 8601 format "
                         f"(e.g., '2023-01-01T00:00:00Z'): {error}") from None
    # A time without a zone is taken as UTC, so a naive and an aware bound compare.
    return value if value.tzinfo else value.replace(tzinfo=_dt.timezone.utc)
