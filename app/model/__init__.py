"""The app's model: the document, its commands and change events, numbers and text,
the DH-chain model, exercises (Qt-free where possible; imports no other app layer)."""
