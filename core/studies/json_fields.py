"""Study figures whose JSON object is their fields as they stand: one ``to_dict`` for all of
them (:class:`~knightgui_core.studies.orders.OrdersSummary`,
:class:`~knightgui_core.studies.tiebreaks.result.FirstFailure`)."""
from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, Any, ClassVar


class FieldsJson:
    """Base of a frozen dataclass of figures whose JSON object is its fields by name, in
    their order; a class whose JSON differs writes its own ``to_dict``."""

    if TYPE_CHECKING:
        __dataclass_fields__: ClassVar[dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        """The fields by name, in their order (``dataclasses.asdict``)."""
        return asdict(self)
