"""Lamella API client (standard library only): see README.md."""
from .client import ApiError, Client
from .models import API_VERSION

__all__ = ["ApiError", "Client", "API_VERSION"]
