"""Pictures: OpenMoji icons, user art, and generated picture cards."""
