"""The price table: USD per million input and output tokens, by model-name prefix."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from stageclaw.errors import StageclawError

BUILTIN = Path(__file__).with_name("prices.toml")


class Price(BaseModel):
    model_config = ConfigDict(extra="forbid")
    input: float = Field(ge=0)
    output: float = Field(ge=0)


class _Table(BaseModel):
    model_config = ConfigDict(extra="forbid")
    models: dict[str, Price]


@dataclass(frozen=True)
class PriceTable:
    models: dict[str, Price]

    @classmethod
    def load(cls, path: Path | None = None) -> PriceTable:
        """The built-in table, updated by `path` (or $STAGECLAW_PRICES) when given."""
        table = dict(_read(BUILTIN).models)
        override = path or (Path(os.environ["STAGECLAW_PRICES"]) if os.environ.get("STAGECLAW_PRICES") else None)
        if override is not None:
            table.update(_read(override).models)
        return cls(table)

    def price(self, model: str) -> Price | None:
        matches = [name for name in self.models if model == name or model.startswith(name)]
        return self.models[max(matches, key=len)] if matches else None

    def cost(self, model: str, input_tokens: int, output_tokens: int) -> float | None:
        price = self.price(model)
        if price is None:
            return None
        return round((input_tokens * price.input + output_tokens * price.output) / 1_000_000, 6)


def _read(path: Path) -> _Table:
    try:
        return _Table.model_validate(tomllib.loads(Path(path).read_text(encoding="utf-8")))
    except (OSError, tomllib.TOMLDecodeError, ValidationError) as exc:
        raise StageclawError(
            f"{path}: not a valid price table ([models.NAME] input = ..., output = ...): {exc}"
        ) from None
