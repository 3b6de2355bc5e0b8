"""Real-browser tests: JupyterLab + Debian chromium + Python Playwright (marker ``e2e``)."""
