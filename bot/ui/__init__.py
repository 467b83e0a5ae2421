"""The generic Discord-free toolkit every game's presenter uses: message specs, control ids, drafts, texts,
the Presenter protocol and the sync plan. Nothing here imports discord or a game engine."""
