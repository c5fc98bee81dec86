# CLI tests (ctest) are added here
