import discord
from discord import app_commands

from bot.localdiscord import close_client, connect_client


async def test_slash_ephemeral(fake_discord):
    world = fake_discord
    guild = world.add_guild("Test")
    chan = world.add_text_channel(guild, "game-1")
    ann = world.add_user("Ann", guild)

    client = discord.Client(intents=discord.Intents.default())
    tree = app_commands.CommandTree(client)

    @tree.command(name="hello", description="say hi")
    async def hello(interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"hi {name}", ephemeral=True)

    task = await connect_client(world, client)
    await tree.sync()
    rec = await ann.slash(chan, "hello", name="Bob")
    assert rec.reply.content == "hi Bob"
    await close_client(client, task, world)
