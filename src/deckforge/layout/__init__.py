"""Layout: cards, documents and sheets as positioned drawing operations."""
