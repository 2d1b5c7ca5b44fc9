"""Front-end tests."""
