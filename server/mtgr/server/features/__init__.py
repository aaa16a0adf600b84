"""Every language feature, registered in one place."""

from mtgr.server.features import diagnostics, documents

ALL_FEATURES = (
    documents.register,
    diagnostics.register,
)
