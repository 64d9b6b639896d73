"""The app's screens: home, drill, summary, stats, decks, the card form, help and dialogs."""
