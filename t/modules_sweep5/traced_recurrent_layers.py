# Embedding, bidirectional LSTM, MultiheadAttention and GRU traced in eval mode inside a scripted module.
import torch
import torch.nn as nn

class L(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(4, 3, num_layers=2, batch_first=True, bidirectional=True)
        self.gru = nn.GRU(6, 2)
        self.emb = nn.Embedding(10, 4, padding_idx=0)
        self.mha = nn.MultiheadAttention(6, 2)
    def forward(self, idx):
        e = self.emb(idx)
        o, (h, c) = self.lstm(e)
        a, w = self.mha(o, o, o)
        g, hg = self.gru(a)
        return g, hg, w

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.net = torch.jit.trace(L().eval(), torch.tensor([[1, 2, 0], [3, 4, 5]]))
    def forward(self, x):
        return self.net(x)
    @torch.jit.export
    def main(self):
        g, hg, w = self.forward(torch.tensor([[1, 0, 9, 2], [3, 4, 5, 6]]))
        print(g, hg, w)
