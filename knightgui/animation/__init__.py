"""The construction of a tour animated: on the board, and exported as GIF or MP4."""
