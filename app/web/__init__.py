"""The lawyers' workbench: review, sign and author etalons in the browser (`etalon serve`)."""
